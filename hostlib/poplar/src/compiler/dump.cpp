// Internal: a text dump of the compiled form (debug.dumpCompiledGraph), for people and for golden tests. Addresses
// are printed relative to the start of the free data region ("+0x40"), so the dump does not change when the tile
// runtime or the codelets change size.
#include <iomanip>
#include <sstream>

#include "passes.hpp"
#include "steps.hpp"

namespace poplar::detail::ir {

namespace {

class Dumper {
public:
  // Before layout (a per-pass dump) `l` and `live` are null: buffers show no address and no live ranges.
  Dumper(const Module &m, const Layout *l, const Liveness *live, const LinkedImage &image)
      : m_(m), l_(l), live_(live), image_(image) {}

  std::string run() {
    os_ << "tiles:";
    for (std::uint32_t t : m_.tiles)
      os_ << " " << t;
    os_ << "\n\nbuffers (id tile +offset size lifetime category 'name'):\n";
    for (BufferId id = 0; id < m_.buffers.size(); ++id) {
      const Buffer &b = m_.buffers[id];
      os_ << "  b" << id << " t" << b.tile << " " << at(id, 0) << " " << b.size;
      if (live_) {
        os_ << " " << (live_->wholeRun[id] ? "run" : "shared");
        for (std::size_t p = 0; p < live_->ranges.size(); ++p)
          if (live_->ranges[p][id].first <= live_->ranges[p][id].second)
            os_ << " p" << p << ":" << live_->ranges[p][id].first << "-" << live_->ranges[p][id].second;
      }
      os_ << " " << b.category << " '" << b.name << "'\n";
    }
    for (std::size_t p = 0; p < m_.programs.size(); ++p) {
      os_ << "\nprogram " << p << ":\n";
      std::vector<StepLine> lines = listSteps(m_.programs[p].body);
      for (std::size_t i = 0; i < lines.size(); ++i) {
        os_ << "  " << std::setw(3) << i << " " << std::string(2 * lines[i].depth, ' ') << lines[i].what;
        if (lines[i].bytes)
          os_ << ", " << lines[i].bytes << " B";
        if (live_ && p < live_->liveBytes.size() && i < live_->liveBytes[p].size())
          os_ << "  [live " << live_->liveBytes[p][i] << " B]";
        os_ << "\n";
        if (lines[i].step)
          details(*lines[i].step, std::string(2 * lines[i].depth + 8, ' '));
      }
    }
    return os_.str();
  }

private:
  std::string at(BufferId id, std::uint32_t offset) const {
    std::ostringstream s;
    if (l_)
      s << "+0x" << std::hex << (l_->addr[id] + offset - image_.freeStart);
    else
      s << "+" << offset; // not placed yet: the offset inside the buffer
    return s.str();
  }

  void perTile(const char *what, const std::map<std::uint32_t, BufferId> &lists, const std::string &indent) {
    os_ << indent << what << ":";
    for (const auto &[t, id] : lists)
      os_ << " t" << t << "=b" << id << "@" << at(id, 0);
    os_ << "\n";
  }

  void details(const Step &step, const std::string &indent) {
    std::visit(
        [&](const auto &x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, ExchangeStep>) {
            perTile("lists", x.lists, indent);
            for (const Transfer &t : x.transfers)
              os_ << indent << "t" << m_.buffers[t.src.buf].tile << " b" << t.src.buf << at(t.src.buf, t.src.offset)
                  << " -> t" << m_.buffers[t.dst.buf].tile << " b" << t.dst.buf << at(t.dst.buf, t.dst.offset)
                  << " " << t.len << " B\n";
          } else if constexpr (std::is_same_v<T, ExecuteStep>) {
            perTile("tables", x.tables, indent);
          } else if constexpr (std::is_same_v<T, StreamCopyStep>) {
            perTile("lists", x.lists, indent);
          } else if constexpr (std::is_same_v<T, IfStep> || std::is_same_v<T, SwitchStep> ||
                               std::is_same_v<T, WhileStep>) {
            perTile("predicate", x.pred.slots, indent);
          }
        },
        step);
  }

  const Module &m_;
  const Layout *l_;
  const Liveness *live_;
  const LinkedImage &image_;
  std::ostringstream os_;
};

} // namespace

std::string dump(const Module &m, const Layout &layout, const Liveness &live, const LinkedImage &image) {
  return Dumper(m, &layout, &live, image).run();
}

std::string dumpUnplaced(const Module &m, const LinkedImage &image) { return Dumper(m, nullptr, nullptr, image).run(); }

} // namespace poplar::detail::ir
