// Constants shared by popops' encoding functions and the losses that use them.
#ifndef popops_EncodingConstants_hpp
#define popops_EncodingConstants_hpp

/// The index value that marks an entry to ignore (a masked label): all bits set in an unsigned 32-bit index.
#ifndef MASKED_LABEL_CODE
#define MASKED_LABEL_CODE 0xFFFFFFFFU
#endif

/// The smallest positive normal FLOAT, added before a natural logarithm so that log never sees zero.
#define EPS_LOG_N_FLOAT (1.17549435e-38F)
/// The smallest positive (subnormal) HALF, the HALF counterpart of EPS_LOG_N_FLOAT.
#define EPS_LOG_N_HALF (0.000000059605F)

#endif // popops_EncodingConstants_hpp
