// Internal: liveness analysis over the lowered programs (the seed's "variable liveness": variables that are not in
// use at the same time share memory).
//
// A backward dataflow analysis on the structured step lists: a buffer is live before a step when the step reads it,
// or when it is live after the step and the step does not overwrite all of it. Loops (Repeat, RepeatWhile) iterate
// to a fixed point, so a value carried from one iteration to the next stays live over the whole body. A buffer live
// at the start of any program holds a value from an earlier run, so it keeps its memory for the whole run; the
// others are in use from the first to the last line where they are accessed or live (one range per program, which
// is conservative inside loops and branches).
#include <algorithm>
#include <type_traits>

#include "passes.hpp"
#include "steps.hpp"

namespace poplar::detail::ir {

namespace {

/// A set of tracked buffers (the Dataflow ones), as bits.
class BufferSet {
public:
  explicit BufferSet(std::size_t n = 0) : words_((n + 63) / 64, 0) {}
  void insert(std::size_t i) { words_[i / 64] |= std::uint64_t(1) << (i % 64); }
  void erase(std::size_t i) { words_[i / 64] &= ~(std::uint64_t(1) << (i % 64)); }
  bool contains(std::size_t i) const { return words_[i / 64] >> (i % 64) & 1; }
  void unite(const BufferSet &o) {
    for (std::size_t k = 0; k < words_.size(); ++k)
      words_[k] |= o.words_[k];
  }
  bool operator==(const BufferSet &o) const { return words_ == o.words_; }
  template <typename Fn> void forEach(Fn &&fn) const {
    for (std::size_t k = 0; k < words_.size(); ++k)
      for (std::uint64_t w = words_[k]; w; w &= w - 1)
        fn(k * 64 + std::size_t(__builtin_ctzll(w)));
  }

private:
  std::vector<std::uint64_t> words_;
};

/// Reads and full overwrites of one step, as tracked-buffer indices.
struct StepUse {
  std::vector<std::size_t> reads, kills, touched;
};

class Analysis {
public:
  explicit Analysis(const Module &m) : m_(m), index_(m.buffers.size(), kUntracked) {
    for (BufferId b = 0; b < m.buffers.size(); ++b)
      if (m.buffers[b].lifetime == Lifetime::Dataflow) {
        index_[b] = tracked_.size();
        tracked_.push_back(b);
      }
  }

  Liveness run() {
    Liveness out;
    std::size_t np = m_.programs.size();
    lines_.resize(np);
    position_.resize(np);
    for (std::size_t p = 0; p < np; ++p) {
      std::vector<StepLine> lines = listSteps(m_.programs[p].body);
      lines_[p] = lines.size();
      for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].step)
          position_[p][lines[i].step] = std::uint32_t(i);
    }
    ranges_.assign(np, std::vector<std::pair<std::uint32_t, std::uint32_t>>(tracked_.size(), {~0u, 0u}));
    // Buffers live at some program's start are live at every program's end (any program may run next).
    BufferSet atStart(tracked_.size());
    for (;;) {
      BufferSet next(tracked_.size());
      for (std::size_t p = 0; p < np; ++p) {
        program_ = p;
        next.unite(before(m_.programs[p].body, atStart));
      }
      if (next == atStart)
        break;
      atStart = next;
    }
    out.wholeRun.assign(m_.buffers.size(), true);
    for (std::size_t i = 0; i < tracked_.size(); ++i)
      out.wholeRun[tracked_[i]] = atStart.contains(i);
    out.ranges.assign(np, std::vector<std::pair<std::uint32_t, std::uint32_t>>(m_.buffers.size(), {1u, 0u}));
    for (std::size_t p = 0; p < np; ++p)
      for (std::size_t i = 0; i < tracked_.size(); ++i)
        if (!atStart.contains(i) && ranges_[p][i].first <= ranges_[p][i].second)
          out.ranges[p][tracked_[i]] = ranges_[p][i];
    out.liveBytes = liveBytes(out);
    return out;
  }

private:
  static constexpr std::size_t kUntracked = ~std::size_t(0);

  std::vector<std::vector<std::uint64_t>> liveBytes(const Liveness &l) const {
    std::uint64_t always = 0;
    for (BufferId b = 0; b < m_.buffers.size(); ++b)
      if (l.wholeRun[b])
        always += m_.buffers[b].size;
    std::vector<std::vector<std::uint64_t>> out;
    for (std::size_t p = 0; p < m_.programs.size(); ++p) {
      std::vector<std::int64_t> delta(lines_[p] + 1, 0);
      for (BufferId b = 0; b < m_.buffers.size(); ++b) {
        auto [lo, hi] = l.ranges[p][b];
        if (lo <= hi) {
          delta[lo] += m_.buffers[b].size;
          delta[hi + 1] -= m_.buffers[b].size;
        }
      }
      std::vector<std::uint64_t> bytes(lines_[p]);
      std::int64_t run = 0;
      for (std::size_t i = 0; i < lines_[p]; ++i) {
        run += delta[i];
        bytes[i] = always + std::uint64_t(run);
      }
      out.push_back(std::move(bytes));
    }
    return out;
  }

  void addAccess(const Access &a, bool write, StepUse &u, std::map<BufferId, std::vector<Access>> &writes) const {
    if (index_[a.buf] == kUntracked)
      return;
    u.touched.push_back(index_[a.buf]);
    if (write)
      writes[a.buf].push_back(a);
    else
      u.reads.push_back(index_[a.buf]);
  }

  /// A buffer is overwritten when the step's writes to it cover all of its bytes.
  void addKills(std::map<BufferId, std::vector<Access>> &writes, StepUse &u) const {
    for (auto &[buf, ws] : writes) {
      std::sort(ws.begin(), ws.end(), [](const Access &a, const Access &b) { return a.begin < b.begin; });
      std::uint32_t covered = 0;
      for (const Access &w : ws)
        if (w.begin <= covered)
          covered = std::max(covered, w.end);
      if (covered >= m_.buffers[buf].size)
        u.kills.push_back(index_[buf]);
    }
  }

  StepUse use(const Effects &fx) const {
    StepUse u;
    std::map<BufferId, std::vector<Access>> writes;
    for (const Access &a : fx.reads)
      addAccess(a, false, u, writes);
    for (const Access &a : fx.writes)
      addAccess(a, true, u, writes);
    addKills(writes, u);
    return u;
  }

  StepUse use(const ExchangeStep &x) const {
    StepUse u;
    std::map<BufferId, std::vector<Access>> writes;
    for (const Transfer &t : x.transfers) {
      addAccess(Access{t.src.buf, t.src.offset, t.src.offset + t.len}, false, u, writes);
      addAccess(Access{t.dst.buf, t.dst.offset, t.dst.offset + t.len}, true, u, writes);
    }
    addKills(writes, u);
    return u;
  }

  StepUse use(const Predicate &p) const {
    StepUse u;
    for (const auto &[tile, slot] : p.slots)
      if (index_[slot] != kUntracked) {
        u.reads.push_back(index_[slot]);
        u.touched.push_back(index_[slot]);
      }
    return u;
  }

  /// Records that the tracked buffers in `live` (and those the step touches) are in use at `step`'s line.
  void mark(const Step &step, const BufferSet &live, const std::vector<std::size_t> &touched) {
    auto it = position_[program_].find(&step);
    if (it == position_[program_].end())
      return; // cycle stamps have no line; they touch only whole-run buffers
    std::uint32_t pos = it->second;
    auto &r = ranges_[program_];
    auto widen = [&](std::size_t i) {
      r[i].first = std::min(r[i].first, pos);
      r[i].second = std::max(r[i].second, pos);
    };
    live.forEach(widen);
    for (std::size_t i : touched)
      widen(i);
  }

  BufferSet through(const StepUse &u, const Step &step, const BufferSet &after) {
    BufferSet in = after;
    for (std::size_t k : u.kills)
      in.erase(k);
    for (std::size_t r : u.reads)
      in.insert(r);
    mark(step, after, u.touched);
    mark(step, in, {});
    return in;
  }

  BufferSet before(const Body &body, BufferSet after) {
    for (auto it = body.rbegin(); it != body.rend(); ++it)
      after = before(*it, after);
    return after;
  }

  BufferSet before(const Step &step, const BufferSet &after) {
    return std::visit(
        [&](const auto &x) -> BufferSet {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, SyncStep> || std::is_same_v<T, StampStep>) {
            mark(step, after, {});
            return after;
          } else if constexpr (std::is_same_v<T, ExchangeStep>) {
            return through(use(x), step, after);
          } else if constexpr (std::is_same_v<T, ExecuteStep> || std::is_same_v<T, StreamCopyStep> ||
                               std::is_same_v<T, PrintStep>) {
            return through(use(x.effects), step, after);
          } else if constexpr (std::is_same_v<T, RepeatStep>) {
            BufferSet loopEnd = after, in(tracked_.size());
            for (;;) { // the body runs at least once; its start is live at its end (next iteration)
              in = before(x.body, loopEnd);
              BufferSet next = after;
              next.unite(in);
              if (next == loopEnd)
                break;
              loopEnd = next;
            }
            mark(step, in, {});
            mark(step, after, {});
            return in;
          } else if constexpr (std::is_same_v<T, IfStep>) {
            BufferSet in = before(x.thenBody, after);
            in.unite(before(x.elseBody, after));
            return through(use(x.pred), step, in);
          } else if constexpr (std::is_same_v<T, SwitchStep>) {
            BufferSet in = before(x.defaultBody, after);
            for (const Body &c : x.cases)
              in.unite(before(c, after));
            return through(use(x.pred), step, in);
          } else if constexpr (std::is_same_v<T, WhileStep>) {
            // condition; test the predicate; leave, or run the body and test again.
            StepUse test = use(x.pred);
            BufferSet bodyIn(tracked_.size()), condIn(tracked_.size());
            for (;;) {
              BufferSet condOut = after;
              condOut.unite(bodyIn);
              for (std::size_t r : test.reads)
                condOut.insert(r);
              BufferSet nextCond = before(x.condition, condOut);
              bodyIn = before(x.body, nextCond);
              if (nextCond == condIn)
                break;
              condIn = nextCond;
            }
            mark(step, condIn, test.touched);
            mark(step, after, {});
            return condIn;
          }
        },
        step);
  }

  const Module &m_;
  std::vector<std::size_t> index_; ///< per buffer: its tracked index, or kUntracked
  std::vector<BufferId> tracked_;
  std::vector<std::size_t> lines_;
  std::vector<std::map<const Step *, std::uint32_t>> position_;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> ranges_; ///< [program][tracked]
  std::size_t program_ = 0;
};

} // namespace

bool Liveness::overlap(BufferId a, BufferId b) const {
  if (wholeRun[a] || wholeRun[b])
    return true;
  for (const auto &r : ranges) {
    auto [alo, ahi] = r[a];
    auto [blo, bhi] = r[b];
    if (alo <= ahi && blo <= bhi && alo <= bhi && blo <= ahi)
      return true;
  }
  return false;
}

Liveness analyseLiveness(const Module &m) { return Analysis(m).run(); }

Liveness everythingLive(const Module &m) {
  Liveness l;
  l.wholeRun.assign(m.buffers.size(), true);
  std::uint64_t total = 0;
  for (const Buffer &b : m.buffers)
    total += b.size;
  for (const Program &p : m.programs) {
    l.ranges.emplace_back(m.buffers.size(), std::make_pair(1u, 0u));
    l.liveBytes.emplace_back(listSteps(p.body).size(), total);
  }
  return l;
}

} // namespace poplar::detail::ir
