// poplin's convolution index arithmetic (ConvUtil.hpp) on one field dimension, against values worked by hand
// from the definition (output o reads transformed-input position (o - outPadLower) * stride + outTruncLower + k'
// for transformed-kernel position k'): strides, padding, input and kernel dilation and flips, the range functions
// (hulls of the valid indices, {0, 0} when empty), and the weight-update parameters' shapes. Host only.
#include <poplin/ConvUtil.hpp>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

using poplin::ConvParams;

namespace {

const unsigned none = ~0U;

// A 1-D convolution of one channel: `input` positions, `kernel` taps.
ConvParams params1d(unsigned input, unsigned kernel, unsigned stride = 1, unsigned padLower = 0) {
  ConvParams p(poplar::FLOAT, 1, {input}, {kernel}, 1, 1, 1);
  p.outputTransform.stride = {stride};
  p.inputTransform.paddingLower = {padLower};
  return p;
}

void test_input_index(void **) {
  assert_int_equal(poplin::getDilatedSize(4, 3), 10);
  assert_int_equal(poplin::getDilatedSize(0, 3), 0);
  const ConvParams plain = params1d(10, 3);
  assert_int_equal(poplin::getInputIndex(0, 7, 2, plain), 9);
  // Stride 2, one position of lower padding: output 0 with tap 0 reads the padding.
  const ConvParams sp = params1d(10, 3, 2, 1);
  assert_int_equal(poplin::getInputIndex(0, 0, 0, sp), none);
  assert_int_equal(poplin::getInputIndex(0, 0, 1, sp), 0);
  assert_int_equal(poplin::getInputIndex(0, 4, 2, sp), 9);
  // Input dilation 2: odd transformed positions are zeros.
  ConvParams dil = params1d(4, 2);
  dil.inputTransform.dilation = {2};
  assert_int_equal(poplin::getInputIndex(0, 1, 0, dil), none);
  assert_int_equal(poplin::getInputIndex(0, 1, 1, dil), 1);
  assert_int_equal(poplin::getKernelIndex(0, 1, 1, dil), 1);
  assert_int_equal(poplin::getKernelIndex(0, 0, 1, dil), none);
  // Flips: a flipped input reads from the far end; a flipped kernel takes its taps in reverse.
  ConvParams fi = params1d(10, 3);
  fi.inputTransform.flip = {true};
  assert_int_equal(poplin::getInputIndex(0, 0, 0, fi), 9);
  ConvParams fk = params1d(10, 3);
  fk.kernelTransform.flip = {true};
  assert_int_equal(poplin::getInputIndex(0, 0, 0, fk), 2);
  assert_int_equal(poplin::getKernelIndex(0, 0, 2, fk), 0);
  // Output padding reads nothing; input truncation shifts the indices.
  ConvParams op = params1d(10, 3);
  op.outputTransform.paddingLower = {2};
  assert_int_equal(poplin::getInputIndex(0, 1, 0, op), none);
  assert_int_equal(poplin::getInputIndex(0, 2, 0, op), 0);
  ConvParams tr = params1d(10, 3);
  tr.inputTransform.truncationLower = {3};
  assert_int_equal(poplin::getInputIndex(0, 0, 0, tr), 3);
  assert_int_equal(poplin::getKernelIndex(0, 0, 2, tr), none);
}

void test_ranges(void **) {
  typedef std::pair<unsigned, unsigned> R;
  const ConvParams p = params1d(10, 3, 1, 1); // 9 outputs
  assert_true(poplin::getOutputRangeForKernelIndex(0, R(0, 9), 0, p) == R(1, 9));
  assert_true(poplin::getOutputRangeForKernelIndex(0, R(0, 1), 0, p) == R(0, 0));
  assert_true(poplin::getOutputRangeForInputIndex(0, R(0, 9), 9, p) == R(8, 9));
  assert_true(poplin::getOutputRangeForKernelRange(0, R(0, 9), R(0, 3), p) == R(0, 9));
  assert_true(poplin::getOutputRangeForInputRange(0, R(0, 9), R(0, 2), p) == R(0, 3));
  assert_true(poplin::getInputRange(0, R(0, 9), 0u, p) == R(0, 8));
  assert_true(poplin::getInputRange(0, R(0, 9), R(0, 3), p) == R(0, 10));
  assert_true(poplin::getInputRange(0, 0u, p) == R(0, 2));
  assert_true(poplin::getInputRange(0, R(2, 4), p) == R(1, 5));
  assert_true(poplin::getInputRange(0, 0u, R(0, 1), p) == R(0, 0));
  assert_true(poplin::getKernelRange(0, R(0, 1), 0u, p) == R(1, 2));
  assert_true(poplin::getKernelRange(0, R(0, 9), R(4, 5), p) == R(0, 3));
}

void test_weight_update_params(void **) {
  // Batch 2, 4 -> 5 channels, stride 2 over 10 inputs with 3 taps: 4 outputs (input 9 unused).
  ConvParams f(poplar::FLOAT, 2, {10}, {3}, 4, 5, 1);
  f.outputTransform.stride = {2};
  const ConvParams w = poplin::getWeightUpdateParams(f);
  assert_int_equal(w.batchSize, 4);
  assert_int_equal(w.inputChannels, 2);
  assert_int_equal(w.outputChannels, 5);
  assert_int_equal(w.kernelShape[0], 4);
  assert_int_equal(w.kernelTransform.dilation[0], 2);
  assert_int_equal(w.getOutputSize(0), 3); // the forward kernel's taps
  ConvParams flipped = f;
  flipped.kernelTransform.flip = {true};
  assert_int_equal(poplin::getWeightUpdateParams(flipped).getOutputSize(0), 3);
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_input_index), cmocka_unit_test(test_ranges),
                                     cmocka_unit_test(test_weight_update_params)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
