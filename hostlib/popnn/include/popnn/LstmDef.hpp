// The units of a basic LSTM cell, naming the four gate slots of its weights and biases (LstmParams::cellOrder
// says which slot holds which unit).
#ifndef POPNN_LSTMDEF_HPP
#define POPNN_LSTMDEF_HPP

/// A unit of the basic LSTM cell.
enum BasicLstmCellUnit {
  BASIC_LSTM_CELL_FORGET_GATE = 0,
  BASIC_LSTM_CELL_INPUT_GATE = 1,
  BASIC_LSTM_CELL_CANDIDATE = 2,
  BASIC_LSTM_CELL_OUTPUT_GATE = 3,
  BASIC_LSTM_CELL_NUM_UNITS = 4
};

#endif // POPNN_LSTMDEF_HPP
