// What the LSTM forward pass (Lstm.cpp) and the training passes (LstmTraining.cpp) share: the argument checks, the
// options, and the layout of the forward intermediates. The GRU (Gru.cpp) shares the size checks, the options and
// the weight layout, which differ only in the number of gates.
#ifndef POPNN_LSTM_DETAIL_HPP
#define POPNN_LSTM_DETAIL_HPP

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "popnn/Lstm.hpp"
#include "popops/Expr.hpp"

namespace popnn {
namespace lstm {
namespace detail {

/// The slots of the forward intermediates {T, FWD_SLOTS, B, out}: the four gate slots (after their
/// non-linearities, in LstmParams::cellOrder), act(c_t), c_t and h_t of each step.
enum FwdSlot : std::size_t { FWD_ACT_CELL = 4, FWD_CELL = 5, FWD_OUTPUT = 6, FWD_SLOTS = 7 };

/// "<debug path>/<fn>" or "popnn::lstm::<fn>".
std::string nameOf(const poplar::DebugContext &dc, const char *fn);
/// Throws poputil::poplibs_error naming `what` for sizes, a type or a cell order it cannot run.
void checkParams(const LstmParams &p, const std::string &what);
/// Throws poputil::poplibs_error naming `what` unless `rnn` has {input size, output size} and is FLOAT or HALF.
void checkSizesAndType(const rnn::RnnParams &rnn, const std::string &what);
/// The input and output weights of a cell with `gates` gates, stored {in, gates, out} and {out, gates, out} as the
/// right operands of the products {T*B, in} x {in, gates*out} and {B, out} x {out, gates*out}, and returned as
/// {gates, in, out} and {gates, out, out} views. `mm`: matMul options (matMulOptions).
std::pair<poplar::Tensor, poplar::Tensor> createGateWeights(poplar::Graph &graph, const rnn::RnnParams &rnn,
                                                            std::size_t gates, const std::string &name,
                                                            const poplar::OptionFlags &mm);
/// The matMul options of the LSTM options (throws poplar::invalid_option for unknown ones).
poplar::OptionFlags matMulOptions(const poplar::OptionFlags &options, const std::string &what);
/// Throws poputil::poplibs_error unless `t` is valid, of `shape` and `type`.
void checkShape(const poplar::Tensor &t, const std::vector<std::size_t> &shape, const poplar::Type &type,
                const std::string &what, const char *operand);
/// A new variable mapped linearly over the tiles.
poplar::Tensor linear(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                      const std::string &name);
/// Multiplications and additions (2 per multiply-accumulate) of a cell's step products with `gates` gates over
/// every step: the output weighting, plus the input weighting when withInput.
uint64_t gateProductFlops(const rnn::RnnParams &rnn, std::size_t gates, bool withInput);
/// Output elements over every step: the count of each element-wise operation of a pass.
uint64_t stepElements(const rnn::RnnParams &rnn);
/// The derivative of non-linearity `nl` (SIGMOID, TANH or RELU) as an expression of its output `y`; throws
/// poputil::poplibs_error naming `what` for another.
std::unique_ptr<popops::expr::Expr> derivative(NonLinearityType nl, const popops::expr::Expr &y,
                                               const std::string &what);
/// slotOf[u]: the gate slot holding unit u.
std::vector<std::size_t> slotOf(const LstmParams &p);

} // namespace detail
} // namespace lstm
} // namespace popnn

#endif // POPNN_LSTM_DETAIL_HPP
