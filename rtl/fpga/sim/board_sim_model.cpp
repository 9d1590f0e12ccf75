// The Verilated board top (Vipu_board_sim) is compiled into this library, away
// from ipu-board-sim's own code: Verilator's C++ is not held to the project's
// warning flags. This file only gives the library a source of its own.
namespace ipu::board_sim {
int model_library_anchor = 0;
} // namespace ipu::board_sim
