// The double-precision host reference of every normalisation the PopLibs tests check (batch, group, layer,
// instance norm and poplin's per-channel blocks): statistics, whitening, scale and shift, parameter gradients and
// the input gradient by central finite differences of the host forward. A layer is told apart only by which
// statistic each (batch element, channel) belongs to, so one reference serves them all.
#pragma once

#include <cmath>
#include <cstddef>
#include <functional>
#include <vector>

namespace norm_reference {

typedef std::vector<double> Vec;

inline Vec toDouble(const std::vector<float> &v) { return Vec(v.begin(), v.end()); }
inline std::vector<float> toFloat(const Vec &v) { return std::vector<float>(v.begin(), v.end()); }

// The host reference for acts [B, C, F] whose statistic of element (b, c) is stat(b, c) (count elements each).
struct Host {
  std::size_t B, C, F, numStats;
  std::function<std::size_t(std::size_t, std::size_t)> stat;
  std::size_t count() const { return B * C * F / numStats; }

  void statistics(const Vec &x, bool unbiased, double eps, Vec &mean, Vec &invStd) const {
    mean.assign(numStats, 0);
    Vec sq(numStats, 0);
    for (std::size_t i = 0; i < x.size(); ++i)
      mean[stat(i / (C * F), (i / F) % C)] += x[i] / double(count());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double d = x[i] - mean[stat(i / (C * F), (i / F) % C)];
      sq[stat(i / (C * F), (i / F) % C)] += d * d;
    }
    invStd.resize(numStats);
    for (std::size_t s = 0; s < numStats; ++s)
      invStd[s] = 1 / std::sqrt(sq[s] / double(unbiased ? count() - 1 : count()) + eps);
  }
  Vec whiten(const Vec &x, const Vec &mean, const Vec &invStd) const {
    Vec w(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::size_t s = stat(i / (C * F), (i / F) % C);
      w[i] = (x[i] - mean[s]) * invStd[s];
    }
    return w;
  }
  Vec scaleShift(const Vec &w, const Vec &gamma, const Vec &beta) const {
    Vec y(w.size());
    for (std::size_t i = 0; i < w.size(); ++i)
      y[i] = w[i] * gamma[(i / F) % C] + beta[(i / F) % C];
    return y;
  }
  Vec forward(const Vec &x, const Vec &gamma, const Vec &beta, double eps) const {
    Vec mean, invStd;
    statistics(x, false, eps, mean, invStd);
    return scaleShift(whiten(x, mean, invStd), gamma, beta);
  }
  // d(sum(g * forward(x))) / dx by central differences.
  Vec inputGradient(const Vec &x, const Vec &g, const Vec &gamma, const Vec &beta, double eps) const {
    const double h = 1e-4;
    Vec d(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      Vec xp = x, xm = x;
      xp[i] += h;
      xm[i] -= h;
      const Vec yp = forward(xp, gamma, beta, eps), ym = forward(xm, gamma, beta, eps);
      double l = 0;
      for (std::size_t j = 0; j < x.size(); ++j)
        l += g[j] * (yp[j] - ym[j]);
      d[i] = l / (2 * h);
    }
    return d;
  }
  void paramGradients(const Vec &w, const Vec &g, Vec &gammaDelta, Vec &betaDelta) const {
    gammaDelta.assign(C, 0);
    betaDelta.assign(C, 0);
    for (std::size_t i = 0; i < w.size(); ++i) {
      gammaDelta[(i / F) % C] += g[i] * w[i];
      betaDelta[(i / F) % C] += g[i];
    }
  }
};

// Batch norm (and poplin's per-channel norms): one statistic per channel over the batch and the field.
inline Host batchNormHost(std::size_t B, std::size_t C, std::size_t F) {
  return Host{B, C, F, C, [](std::size_t, std::size_t c) { return c; }};
}

// Group norm with G strided channel groups (channel c in group c % G), one statistic per batch element and group.
inline Host stridedGroupHost(std::size_t B, std::size_t C, std::size_t F, std::size_t G) {
  return Host{B, C, F, B * G, [G](std::size_t b, std::size_t c) { return b * G + c % G; }};
}

} // namespace norm_reference
