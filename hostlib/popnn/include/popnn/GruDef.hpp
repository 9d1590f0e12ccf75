// The units of a basic GRU cell, naming the three gate slots of its weights and biases (GruParams::cellOrder says
// which slot holds which unit).
#ifndef POPNN_GRUDEF_HPP
#define POPNN_GRUDEF_HPP

/// A unit of the basic GRU cell.
enum BasicGruCellUnit {
  BASIC_GRU_CELL_RESET_GATE = 0,
  BASIC_GRU_CELL_UPDATE_GATE = 1,
  BASIC_GRU_CELL_CANDIDATE = 2,
  BASIC_GRU_CELL_NUM_UNITS = 3
};

#endif // POPNN_GRUDEF_HPP
