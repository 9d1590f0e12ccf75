// popvis: the explorable parts of the page (docs/popvis.md): a tile's memory by category and its vertices, a
// zoomable execution timeline with each step's estimated and measured cycles, the variables live at a chosen
// program step, and two reports side by side. The report's figures are embedded once as JSON and inline JS draws
// the views from them, so the page stays one file that fetches nothing.
#ifndef POPVIS_EXPLORE_HPP
#define POPVIS_EXPLORE_HPP

#include <nlohmann/json.hpp>
#include <string>

#include "pva/pva.hpp"

namespace popvis {

/// What the views need from one report: per-tile memory by category and vertex counts by type, the execution
/// steps (estimated and measured cycles), and per program step the live bytes and live variables.
nlohmann::json exploreData(const pva::Report &r);

/// The page's explorable section for `data` (tile view, timeline, liveness view) with its script.
std::string exploreSection(const nlohmann::json &data);

/// A page comparing two reports: memory by category and per tile, and cycles per step, side by side.
std::string comparePage(const nlohmann::json &a, const std::string &nameA, const nlohmann::json &b,
                        const std::string &nameB);

} // namespace popvis

#endif // POPVIS_EXPLORE_HPP
