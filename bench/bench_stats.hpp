// Statistics for benchmarks on a shared, noisy machine (issue 20): a figure is the median of several samples,
// printed with its min and max, and a speed is a ratio against a baseline measured alternately with it in the same
// run, so that a slow moment of the machine hits both sides alike.
//
//   bench::Samples s = bench::sample(7, [&] { return timeOneRun(); });   // seconds of each sample
//   std::printf("run %s\n", bench::format(s, 1e3, "ms").c_str());       // "run 12.3 ms (min 11.9, max 14.0, n=7)"
//   bench::Pair p = bench::alternate(7, [&] { return memcpyRun(); }, [&] { return streamRun(); });
//   p.ratio(): median subject / median baseline (of whatever the callables return: seconds or a rate)
//
// Header-only, C++17, no dependencies beyond the standard library.
#pragma once
#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

/// The samples of one figure and their order statistics.
struct Samples {
  std::vector<double> values;

  double median() const {
    if (values.empty())
      throw std::logic_error("bench::Samples::median: no samples");
    std::vector<double> v = values;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
  double min() const { return values.empty() ? 0 : *std::min_element(values.begin(), values.end()); }
  double max() const { return values.empty() ? 0 : *std::max_element(values.begin(), values.end()); }
  std::size_t size() const { return values.size(); }
  void add(double v) { values.push_back(v); }
};

/// Calls `measure` `n` times (after `warmup` calls that are thrown away); each call returns one sample.
inline Samples sample(int n, const std::function<double()> &measure, int warmup = 0) {
  for (int i = 0; i < warmup; ++i)
    measure();
  Samples s;
  for (int i = 0; i < n; ++i)
    s.add(measure());
  return s;
}

/// A baseline and a subject measured alternately: baseline, subject, baseline, subject...
struct Pair {
  Samples baseline, subject;
  /// Median subject over median baseline. For times, > 1 means the subject is slower; for rates, faster.
  double ratio() const { return subject.median() / baseline.median(); }
};

/// Runs `rounds` rounds of baseline then subject (after one warm-up round of each, thrown away).
inline Pair alternate(int rounds, const std::function<double()> &baseline, const std::function<double()> &subject,
                      bool warmup = true) {
  if (warmup) {
    baseline();
    subject();
  }
  Pair p;
  for (int i = 0; i < rounds; ++i) {
    p.baseline.add(baseline());
    p.subject.add(subject());
  }
  return p;
}

/// "12.3 ms (min 11.9, max 14.0, n=7)": the median, min and max, each multiplied by `scale`.
inline std::string format(const Samples &s, double scale, const char *unit, int decimals = 3) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.*f %s (min %.*f, max %.*f, n=%zu)", decimals, s.median() * scale, unit, decimals,
                s.min() * scale, decimals, s.max() * scale, s.size());
  return buf;
}

} // namespace bench
