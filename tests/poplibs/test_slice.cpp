// popops' dynamic slicing against a host reference: dynamicSlice/dynamicUpdate over one and several dimensions
// of odd-sized tensors spread over 16 tiles, with the offsets written by the host between runs of the same
// engine (in range, wrapping past the end, out of range); createSliceableTensor over many tiles; the multiSlice
// and multiUpdate family on an embedding; every element size (FLOAT, INT, UNSIGNED_INT, BOOL, HALF); and the
// argument errors; 8-byte elements (LONGLONG, UNSIGNED_LONGLONG) through every copying operation.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>

#include <poplar/exceptions.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/Gather.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

using Shape = std::vector<std::size_t>;

std::size_t count(const Shape &s) {
  std::size_t n = 1;
  for (std::size_t d : s)
    n *= d;
  return n;
}

// Row-major index of `idx` in `shape`.
std::size_t flatIndex(const Shape &shape, const Shape &idx) {
  std::size_t f = 0;
  for (std::size_t d = 0; d < shape.size(); ++d)
    f = f * shape[d] + idx[d];
  return f;
}

// Calls fn(idx) for every index of `shape` in row-major order.
template <typename Fn> void forEachIndex(const Shape &shape, Fn fn) {
  Shape idx(shape.size(), 0);
  for (std::size_t n = 0; n < count(shape); ++n) {
    fn(idx);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

// The base index of slice element `idx` per PopLibs: start = offset (0 if out of range), wrapping at the end.
Shape baseIndex(const Shape &base, Shape idx, const Shape &dims, const std::vector<unsigned> &offs) {
  for (std::size_t k = 0; k < dims.size(); ++k) {
    std::size_t n = base[dims[k]], start = offs[k] < n ? offs[k] : 0;
    idx[dims[k]] = (start + idx[dims[k]]) % n;
  }
  return idx;
}

template <typename T>
std::vector<T> refSlice(const std::vector<T> &h, const Shape &base, const Shape &dims, const Shape &sizes,
                        const std::vector<unsigned> &offs) {
  Shape out = base;
  for (std::size_t k = 0; k < dims.size(); ++k)
    out[dims[k]] = sizes[k];
  std::vector<T> r;
  forEachIndex(out, [&](const Shape &idx) { r.push_back(h[flatIndex(base, baseIndex(base, idx, dims, offs))]); });
  return r;
}

template <typename T>
std::vector<T> refUpdate(std::vector<T> h, const std::vector<T> &s, const Shape &base, const Shape &dims,
                         const Shape &sizes, const std::vector<unsigned> &offs) {
  Shape sub = base;
  for (std::size_t k = 0; k < dims.size(); ++k)
    sub[dims[k]] = sizes[k];
  std::size_t i = 0;
  forEachIndex(sub, [&](const Shape &idx) { h[flatIndex(base, baseIndex(base, idx, dims, offs))] = s[i++]; });
  return h;
}

// IEEE binary16 of a float that half holds exactly (normal numbers and zero), and back.
std::uint16_t toHalf(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint16_t sign = std::uint16_t((x >> 16) & 0x8000u);
  if (f == 0.0f)
    return sign;
  const std::uint32_t e = ((x >> 23) & 0xffu) - 127u + 15u;
  return std::uint16_t(sign | (e << 10) | ((x >> 13) & 0x3ffu));
}
float fromHalf(std::uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const float v = (e == 0 && m == 0) ? 0.0f : std::ldexp(1.0f + float(m) / 1024.0f, e - 15);
  return (h & 0x8000u) ? -v : v;
}

// One engine, three runs with different offsets: slices of a FLOAT [7, 9, 5] tensor over dims {0, 2} and over
// dim 1 alone, read back after each run.
void test_dynamic_slice_offsets_between_runs(void **) {
  Fixture f;
  const Shape shape = {7, 9, 5};
  Tensor t = f.var(FLOAT, shape, "t");
  Tensor off2 = f.var(UNSIGNED_INT, {2}, "off2");
  Tensor off1 = f.var(INT, {1}, "off1");
  Tensor a = popops::dynamicSlice(f.graph, t, off2, {0, 2}, {3, 2}, f.prog, "a");
  Tensor b = popops::dynamicSlice(f.graph, t, off1, {1}, {4}, f.prog, "b");
  assert_true(a.shape() == (Shape{3, 9, 2}));
  assert_true(b.shape() == (Shape{7, 4, 5}));
  f.readable(a, "a");
  f.readable(b, "b");
  f.build();
  auto h = floats(count(shape), 1);
  f.write("t", h);
  // in range; wrapping past the end (6 + 3 > 7, 4 + 2 > 5); out of range (row 0); negative INT is out of range.
  const std::vector<std::vector<unsigned> > offs2 = {{2, 1}, {6, 4}, {50, 7}};
  const std::vector<int> offs1 = {3, 8, -2};
  for (std::size_t run = 0; run < offs2.size(); ++run) {
    f.write("off2", offs2[run]);
    f.write("off1", std::vector<int>{offs1[run]});
    f.engine->run(0);
    expectNear(f.read<float>("a", 3 * 9 * 2), refSlice(h, shape, {0, 2}, {3, 2}, offs2[run]), "a");
    expectNear(f.read<float>("b", 7 * 4 * 5), refSlice(h, shape, {1}, {4}, {unsigned(offs1[run])}), "b");
  }
}

// dynamicUpdate of an INT [5, 6, 4] tensor over dims {2, 0} and of a BOOL tensor over one dimension, twice with
// different offsets; the update comes from a transposed view.
void test_dynamic_update(void **) {
  Fixture f;
  const Shape shape = {5, 6, 4};
  Tensor t = f.var(INT, shape, "t");
  Tensor s = f.var(INT, {6, 3, 2}, "s"); // s.dimShuffle({1, 0, 2}) is [3, 6, 2]
  Tensor off = f.var(UNSIGNED_INT, {2}, "off");
  popops::dynamicUpdate(f.graph, t, s.dimShuffle({1, 0, 2}), off, {2, 0}, {2, 3}, f.prog, "upd");
  Tensor bt = f.var(BOOL, {9, 3}, "bt"), bs = f.var(BOOL, {2, 3}, "bs"), boff = f.var(UNSIGNED_INT, {1}, "boff");
  popops::dynamicUpdate(f.graph, bt, bs, boff, {0}, {2}, f.prog, "bupd");
  f.build();
  auto ht = ints(count(shape), 2), hs = ints(36, 3);
  // The update in [3, 6, 2] order, as the tensor s.dimShuffle({1, 0, 2}) presents it.
  std::vector<int> hsView;
  forEachIndex({3, 6, 2}, [&](const Shape &i) { hsView.push_back(hs[(i[1] * 3 + i[0]) * 2 + i[2]]); });
  std::vector<unsigned char> hbt(27, 0), hbs = {1, 1, 0, 1, 0, 1};
  const std::vector<std::vector<unsigned> > offs = {{1, 2}, {3, 4}};
  for (const auto &o : offs) {
    f.write("t", ht);
    f.write("s", hs);
    f.write("off", o);
    f.write("bt", hbt);
    f.write("bs", hbs);
    f.write("boff", std::vector<unsigned>{o[1] + 4});
    f.engine->run(0);
    expectEqual(f.read<int>("t.r", ht.size()), refUpdate(ht, hsView, shape, {2, 0}, {2, 3}, o), "t");
    expectEqual(f.read<unsigned char>("bt.r", 27), refUpdate(hbt, hbs, {9, 3}, {0}, {2}, {o[1] + 4}), "bt");
  }
}

// createSliceableTensor spreads [97, 301] over the 16 tiles by columns; dynamicSliceWithOutput into
// createSliceTensor's tensor and an UNSIGNED_INT slice; HALF moves as 16-bit elements.
void test_sliceable_many_tiles_and_types(void **) {
  Fixture f;
  const Shape shape = {97, 301};
  Tensor t = popops::createSliceableTensor(f.graph, FLOAT, shape, {0}, {1}, 4, "t");
  auto m = f.graph.getTileMapping(t);
  assert_int_equal(poputil::getNumTilesUsed(m), 16);
  f.graph.createHostWrite("t", t);
  Tensor out = popops::createSliceTensor(f.graph, t, {0}, {2}, 1, "out")[0];
  assert_true(out.shape() == (Shape{2, 301}));
  Tensor off = f.var(UNSIGNED_INT, {1}, "off");
  popops::dynamicSliceWithOutput(f.graph, out, t, off, {0}, {2}, f.prog, "sl");
  f.readable(out, "out");
  Tensor u = f.var(UNSIGNED_INT, {4, 11}, "u");
  Tensor uo = popops::dynamicSlice(f.graph, u.transpose(), off, {0}, {3}, f.prog); // columns 10, 0, 1 of u
  f.readable(uo, "uo");
  Tensor hf = f.graph.addVariable(HALF, {6, 5}, "hf");
  poputil::mapTensorLinearly(f.graph, hf, 3, 1);
  f.graph.createHostWrite("hf", hf.reinterpret(UNSIGNED_SHORT));
  Tensor ho = popops::dynamicSlice(f.graph, hf, off, {0}, {2}, f.prog);
  f.graph.createHostRead("ho", ho.reinterpret(UNSIGNED_SHORT));
  f.build();
  auto h = floats(count(shape), 4);
  std::vector<unsigned> hu(44);
  for (std::size_t i = 0; i < hu.size(); ++i)
    hu[i] = unsigned(i * 2654435761u);
  std::vector<std::uint16_t> hh(30);
  for (std::size_t i = 0; i < hh.size(); ++i)
    hh[i] = std::uint16_t(0x3c00 + i * 17);
  f.write("t", h);
  f.write("u", hu);
  f.write("hf", hh);
  for (unsigned o : {10u, 96u}) {
    f.write("off", std::vector<unsigned>{o});
    f.engine->run(0);
    expectNear(f.read<float>("out", 602), refSlice(h, shape, {0}, {2}, {o}), "out");
    std::vector<unsigned> huT(44);
    for (std::size_t r = 0; r < 4; ++r)
      for (std::size_t c = 0; c < 11; ++c)
        huT[c * 4 + r] = hu[r * 11 + c];
    expectEqual(f.read<unsigned>("uo", 12), refSlice(huT, {11, 4}, {0}, {3}, {o}), "uo");
    expectEqual(f.read<std::uint16_t>("ho", 10), refSlice(hh, {6, 5}, {0}, {2}, {o}), "ho");
  }
}

// An embedding of 13 rows of 7 floats: multiSlice (with out-of-range indices giving zeros, or row 0 with
// remapOutOfBoundIndices), multiUpdate, multiUpdateAdd with a scale, multiUpdateMax; INT multiUpdateAdd; the
// ArrayRef overload.
void test_multi_slice_update(void **) {
  Fixture f;
  const std::size_t rows = 13, cols = 7, n = 5;
  popops::SlicePlan plan = popops::embedding::plan(f.graph, FLOAT, rows, cols, {n}, {{"usedForUpdate", "true"}});
  Tensor emb = popops::createSliceableTensor(f.graph, FLOAT, {rows, cols}, {0}, {1}, plan, {}, "emb");
  f.graph.createHostWrite("emb", emb);
  f.graph.createHostRead("emb.r", emb);
  Tensor ids = popops::createIndicesTensor(f.graph, {0}, n, plan, {}, "ids");
  f.graph.createHostWrite("ids", ids);
  Tensor got = popops::multiSlice(f.graph, emb, ids, {0}, {1}, f.prog, plan, {}, "got");
  Tensor remapped = popops::multiSlice(f.graph, emb, ids, {0}, {1}, f.prog, plan, {{"remapOutOfBoundIndices", "true"}});
  Tensor fixed = popops::multiSlice(f.graph, emb, std::vector<unsigned>{4, 99, 0}, 0, f.prog, "fixed");
  assert_true(got.shape() == (Shape{n, 1, cols}));
  assert_true(fixed.shape() == (Shape{3, 1, cols}));
  f.readable(got, "got");
  f.readable(remapped, "remapped");
  f.readable(fixed, "fixed");
  // Then: emb2 = emb; emb2[ids] = upd; emb3 = emb; emb3[ids] += 0.5 * upd; emb4 = emb; emb4[ids] = max(.., upd).
  Tensor upd = popops::createSliceTensor(f.graph, emb, {0}, {1}, n, "upd");
  f.graph.createHostWrite("upd", upd);
  Tensor emb2 = popops::createSliceableTensor(f.graph, FLOAT, {rows, cols}, {0}, {1}, plan, {}, "emb2");
  Tensor emb3 = popops::createSliceableTensor(f.graph, FLOAT, {rows, cols}, {0}, {1}, plan, {}, "emb3");
  Tensor emb4 = popops::createSliceableTensor(f.graph, FLOAT, {rows, cols}, {0}, {1}, plan, {}, "emb4");
  for (Tensor e : {emb2, emb3, emb4})
    f.prog.add(Copy(emb, e));
  Tensor scale = f.var(FLOAT, {1}, "scale");
  popops::multiUpdate(f.graph, emb2, upd, ids, {0}, {1}, f.prog, plan, {});
  popops::multiUpdateAdd(f.graph, emb3, upd, ids, scale, {0}, {1}, f.prog, plan, {});
  popops::multiUpdateMax(f.graph, emb4, upd, ids, {0}, {1}, f.prog, plan, {});
  f.readable(emb2, "emb2");
  f.readable(emb3, "emb3");
  f.readable(emb4, "emb4");
  // INT: counts of each index in a [6] histogram, through multiUpdateAdd of ones with scale 1.
  Tensor hist = f.var(INT, {6, 1}, "hist"), ones = f.var(INT, {n, 1, 1}, "ones"), one = f.var(INT, {1}, "one");
  Tensor hids = f.var(UNSIGNED_INT, {n, 1}, "hids");
  popops::multiUpdateAdd(f.graph, hist, ones, hids, one, {0}, {1}, f.prog, popops::SlicePlan(), {});
  f.build();

  auto h = floats(rows * cols, 7), hu = floats(n * cols, 8);
  const std::vector<unsigned> hid = {3, 12, 13, 3, 0}; // 13 is out of range; 3 twice
  f.write("emb", h);
  f.write("ids", hid);
  f.write("upd", hu);
  f.write("scale", std::vector<float>{0.5f});
  f.write("hist", std::vector<int>(6, 0));
  f.write("ones", std::vector<int>(n, 1));
  f.write("one", std::vector<int>{1});
  f.write("hids", std::vector<unsigned>{1, 5, 1, 7, 1});
  f.engine->run(0);

  std::vector<float> wgot, wremap, wfixed;
  for (unsigned id : hid)
    for (std::size_t c = 0; c < cols; ++c) {
      wgot.push_back(id < rows ? h[id * cols + c] : 0.0f);
      wremap.push_back(h[(id < rows ? id : 0) * cols + c]);
    }
  for (unsigned id : {4u, 99u, 0u})
    for (std::size_t c = 0; c < cols; ++c)
      wfixed.push_back(id < rows ? h[id * cols + c] : 0.0f);
  expectNear(f.read<float>("got", n * cols), wgot, "got");
  expectNear(f.read<float>("remapped", n * cols), wremap, "remapped");
  expectNear(f.read<float>("fixed", 3 * cols), wfixed, "fixed");
  std::vector<float> w2 = h, w3 = h, w4 = h;
  for (std::size_t k = 0; k < n; ++k) {
    if (hid[k] >= rows)
      continue;
    for (std::size_t c = 0; c < cols; ++c) {
      float &e2 = w2[hid[k] * cols + c], &e3 = w3[hid[k] * cols + c], &e4 = w4[hid[k] * cols + c];
      const float u = hu[k * cols + c];
      e2 = u;
      e3 += 0.5f * u;
      e4 = std::max(e4, u);
    }
  }
  expectNear(f.read<float>("emb2", rows * cols), w2, "emb2");
  expectNear(f.read<float>("emb3", rows * cols), w3, "emb3");
  expectNear(f.read<float>("emb4", rows * cols), w4, "emb4");
  expectEqual(f.read<int>("hist.r", 6), std::vector<int>{0, 3, 0, 0, 0, 1}, "hist");
  expectNear(f.read<float>("emb.r", rows * cols), h, "emb unchanged");
}

// HALF multiUpdateAdd (HALF and FLOAT scales) and multiUpdateMax; the values are exact in half.
// remapOutOfBoundIndices on the updates, as on multiSlice: an offset past the base's rows updates row 0 instead of
// nothing (Graphcore's MultiUpdateAdd2OutOfBound cases); without the option such a row is left alone.
void test_multi_update_remap(void **) {
  Fixture f;
  const std::size_t rows = 5, cols = 4, n = 3;
  Tensor a = f.var(FLOAT, {rows, cols}, "a"), b = f.var(FLOAT, {rows, cols}, "b"), c = f.var(FLOAT, {rows, cols}, "c");
  Tensor s = f.var(FLOAT, {n, 1, cols}, "s"), ids = f.var(UNSIGNED_INT, {n, 1}, "ids");
  Tensor scale = f.var(FLOAT, {1}, "scale");
  const poplar::OptionFlags remap{{"remapOutOfBoundIndices", "true"}};
  popops::multiUpdateAdd(f.graph, a, s, ids, scale, {0}, {1}, f.prog, popops::SlicePlan(), remap);
  popops::multiUpdateAdd(f.graph, b, s, ids, scale, {0}, {1}, f.prog, popops::SlicePlan(), {});
  popops::multiUpdate(f.graph, c, s, ids, {0}, {1}, f.prog, popops::SlicePlan(), remap);
  f.build();
  const auto base = floats(rows * cols, 11), hs = floats(n * cols, 12);
  for (const char *name : {"a", "b", "c"})
    f.write(name, base);
  f.write("s", hs);
  f.write("scale", std::vector<float>{0.5f});
  const std::vector<unsigned> hid = {rows, 2, rows + 7}; // two offsets past the end
  f.write("ids", hid);
  f.engine->run(0);
  std::vector<float> wa = base, wb = base, wc = base;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t col = 0; col < cols; ++col) {
      const float v = hs[k * cols + col];
      const std::size_t row = hid[k] < rows ? hid[k] : 0;
      wa[row * cols + col] += 0.5f * v;
      if (hid[k] < rows)
        wb[row * cols + col] += 0.5f * v;
      wc[row * cols + col] = v;
    }
  expectNear(f.read<float>("a.r", rows * cols), wa, "multiUpdateAdd with remapOutOfBoundIndices");
  expectNear(f.read<float>("b.r", rows * cols), wb, "multiUpdateAdd leaves out-of-range rows alone");
  expectNear(f.read<float>("c.r", rows * cols), wc, "multiUpdate with remapOutOfBoundIndices");
}

void test_half_multi_update(void **) {
  Fixture f;
  const std::size_t rows = 6, cols = 3, n = 3;
  std::vector<Tensor> embs;
  for (int i = 0; i < 3; ++i) {
    Tensor e = popops::createSliceableTensor(f.graph, HALF, {rows, cols}, {0}, {1}, 1, "e" + std::to_string(i));
    f.graph.createHostWrite("e" + std::to_string(i), e.reinterpret(UNSIGNED_SHORT));
    f.graph.createHostRead("e" + std::to_string(i) + ".r", e.reinterpret(UNSIGNED_SHORT));
    embs.push_back(e);
  }
  Tensor s = f.graph.addVariable(HALF, {n, 1, cols}, "s");
  poputil::mapTensorLinearly(f.graph, s, 1, 1);
  f.graph.createHostWrite("s", s.reinterpret(UNSIGNED_SHORT));
  Tensor sh = f.graph.addVariable(HALF, {1}, "sh");
  f.graph.setTileMapping(sh, 3);
  f.graph.createHostWrite("sh", sh.reinterpret(UNSIGNED_SHORT));
  Tensor sf = f.var(FLOAT, {1}, "sf"), ids = f.var(UNSIGNED_INT, {n, 1}, "ids");
  popops::SlicePlan plan;
  popops::multiUpdateAdd(f.graph, embs[0], s, ids, sf, {0}, {1}, f.prog, plan, {});
  popops::multiUpdateAdd(f.graph, embs[1], s, ids, sh, {0}, {1}, f.prog, plan, {});
  popops::multiUpdateMax(f.graph, embs[2], s, ids, {0}, {1}, f.prog, plan, {});
  f.build();
  auto he = floats(rows * cols, 9), hs = floats(n * cols, 10);
  auto bits = [](const std::vector<float> &v) {
    std::vector<std::uint16_t> b;
    for (float x : v)
      b.push_back(toHalf(x));
    return b;
  };
  for (int i = 0; i < 3; ++i)
    f.write("e" + std::to_string(i), bits(he));
  f.write("s", bits(hs));
  f.write("sh", std::vector<std::uint16_t>{toHalf(-2.0f)});
  f.write("sf", std::vector<float>{0.5f});
  const std::vector<unsigned> hid = {4, 1, 4};
  f.write("ids", hid);
  f.engine->run(0);
  std::vector<float> w0 = he, w1 = he, w2 = he;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t c = 0; c < cols; ++c) {
      const std::size_t at = hid[k] * cols + c;
      w0[at] += 0.5f * hs[k * cols + c];
      w1[at] += -2.0f * hs[k * cols + c];
      w2[at] = std::max(w2[at], hs[k * cols + c]);
    }
  const std::vector<float> *want[] = {&w0, &w1, &w2};
  for (int i = 0; i < 3; ++i) {
    std::vector<float> got;
    for (std::uint16_t b : f.read<std::uint16_t>("e" + std::to_string(i) + ".r", rows * cols))
      got.push_back(fromHalf(b));
    expectNear(got, *want[i], ("half e" + std::to_string(i)).c_str());
  }
}

// 64 tiles: a [50, 640] sliceable table uses every tile; multiSlice and multiUpdate against the host.
void test_many_tiles(void **) {
  Fixture f(64);
  const std::size_t rows = 50, cols = 640, n = 7;
  Tensor t = popops::createSliceableTensor(f.graph, INT, {rows, cols}, {0}, {1}, 0, "t");
  assert_int_equal(poputil::getNumTilesUsed(f.graph.getTileMapping(t)), 64);
  f.graph.createHostWrite("t", t);
  f.graph.createHostRead("t.r", t);
  Tensor ids = f.var(UNSIGNED_INT, {n, 1}, "ids");
  Tensor got = popops::multiSlice(f.graph, t, ids, {0}, {1}, f.prog, popops::SlicePlan(), {});
  f.readable(got, "got");
  Tensor s = popops::createSliceTensor(f.graph, INT, {rows, cols}, {0}, {1}, n, popops::SlicePlan(), {}, "s");
  f.graph.createHostWrite("s", s);
  popops::multiUpdate(f.graph, t, s, ids, {0}, {1}, f.prog, popops::SlicePlan(), {});
  f.build();
  auto ht = ints(rows * cols, 11), hs = ints(n * cols, 12);
  const std::vector<unsigned> hid = {49, 0, 17, 3, 17, 60, 25};
  f.write("t", ht);
  f.write("s", hs);
  f.write("ids", hid);
  f.engine->run(0);
  std::vector<int> wgot, wt = ht;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t c = 0; c < cols; ++c) {
      wgot.push_back(hid[k] < rows ? ht[hid[k] * cols + c] : 0);
      if (hid[k] < rows)
        wt[hid[k] * cols + c] = hs[k * cols + c];
    }
  expectEqual(f.read<int>("got", n * cols), wgot, "got");
  expectEqual(f.read<int>("t.r", rows * cols), wt, "t");
}

// createSliceableTensorFromSlice: each of the 3 x 2 slices is mapped like the reference slice.
void test_sliceable_from_slice(void **) {
  Fixture f;
  Tensor s = f.var(FLOAT, {4, 5}, "s");
  Tensor t = popops::createSliceableTensorFromSlice(f.graph, s, {0, 1}, {3, 2}, "t");
  assert_true(t.shape() == (Shape{12, 10}));
  auto want = f.graph.getTileMapping(s);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j) {
      Tensor piece = t.slice({i * 4, j * 5}, {i * 4 + 4, j * 5 + 5});
      assert_true(f.graph.getTileMapping(piece) == want);
    }
  // The mapping of a 2 x 3 slice of t is that of t's top-left 2 x 3 corner.
  assert_true(popops::getSliceMapping(f.graph, t, {0, 1}, {2, 3}) == f.graph.getTileMapping(t.slice({0, 0}, {2, 3})));
}

// gather along an axis (numpy.take, out-of-range index -> zeros) and XLA's gather (the reference's example, and
// slices of two rows with clamped start indices).
void test_gather(void **) {
  Fixture f;
  Tensor in = popops::createGatherInput(f.graph, FLOAT, {5, 4, 3}, 1, popops::GatherParams(), "in");
  f.graph.createHostWrite("in", in);
  Tensor idx = f.var(UNSIGNED_INT, {2, 3}, "idx");
  Tensor g = popops::gather(f.graph, in, idx, 1, f.prog, popops::GatherParams());
  assert_true(g.shape() == (Shape{5, 2, 3, 3}));
  f.readable(g, "g");
  Tensor m = f.var(INT, {3, 3}, "m"), mi = f.var(INT, {2, 2}, "mi");
  Tensor x1 = popops::gather(f.graph, m, mi, 1, {}, {1, 1}, {0, 1}, {0, 1}, f.prog);
  assert_true(x1.shape() == (Shape{2}));
  f.readable(x1, "x1");
  Tensor w = f.var(INT, {4, 5}, "w"), wi = f.var(UNSIGNED_INT, {3}, "wi");
  Tensor x2 = popops::gather(f.graph, w, wi, 1, {1, 2}, {2, 5}, {}, {0}, f.prog);
  assert_true(x2.shape() == (Shape{3, 2, 5}));
  f.readable(x2, "x2");
  f.build();
  auto h = floats(60, 5);
  const std::vector<unsigned> hidx = {3, 0, 9, 1, 1, 2};
  std::vector<int> hm = {1, 2, 3, 4, 5, 6, 7, 8, 9}, hw = ints(20, 6);
  f.write("in", h);
  f.write("idx", hidx);
  f.write("m", hm);
  f.write("mi", std::vector<int>{1, 1, 2, 1});
  f.write("w", hw);
  f.write("wi", std::vector<unsigned>{1, 7, 0});
  f.engine->run(0);
  std::vector<float> wg;
  for (std::size_t a = 0; a < 5; ++a)
    for (unsigned i : hidx)
      for (std::size_t c = 0; c < 3; ++c)
        wg.push_back(i < 4 ? h[(a * 4 + i) * 3 + c] : 0.0f);
  expectNear(f.read<float>("g", wg.size()), wg, "g");
  expectEqual(f.read<int>("x1", 2), std::vector<int>{5, 8}, "x1");
  std::vector<int> wx2;
  for (unsigned start : {1u, 2u, 0u})
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 5; ++j)
        wx2.push_back(hw[(start + i) * 5 + j]);
  expectEqual(f.read<int>("x2", 30), wx2, "x2");
}

// 8-byte elements: a [7, 3] UNSIGNED_LONGLONG tensor (values using all 64 bits) over 16 tiles through
// dynamicSlice, dynamicUpdate, multiSlice and multiUpdate, and a LONGLONG [5, 2] through dynamicSlice; each
// against the host reference.
void test_eight_byte_elements(void **) {
  Fixture f;
  const Shape shape = {7, 3};
  Tensor t = f.var(UNSIGNED_LONGLONG, shape, "t");
  Tensor off = f.var(UNSIGNED_INT, {1}, "off");
  f.readable(popops::dynamicSlice(f.graph, t, off, {0}, {2}, f.prog), "ds");
  Tensor u = f.var(UNSIGNED_LONGLONG, shape, "u"), s = f.var(UNSIGNED_LONGLONG, {2, 3}, "s");
  popops::dynamicUpdate(f.graph, u, s, off, {0}, {2}, f.prog);
  Tensor ids = f.var(UNSIGNED_INT, {3, 1}, "ids");
  f.readable(popops::multiSlice(f.graph, t, ids, {0}, {1}, f.prog, popops::SlicePlan(), {}), "ms");
  Tensor m = f.var(UNSIGNED_LONGLONG, shape, "m"), ms = f.var(UNSIGNED_LONGLONG, {3, 1, 3}, "mu");
  popops::multiUpdate(f.graph, m, ms, ids, {0}, {1}, f.prog, popops::SlicePlan(), {});
  Tensor l = f.var(LONGLONG, {5, 2}, "l");
  f.readable(popops::dynamicSlice(f.graph, l, off, {0}, {3}, f.prog), "ls");
  f.build();
  std::vector<unsigned long long> h(21), hs(6), hm(9);
  for (std::size_t i = 0; i < h.size(); ++i)
    h[i] = 0x9e3779b97f4a7c15ull * (i + 1);
  for (std::size_t i = 0; i < hs.size(); ++i)
    hs[i] = ~0ull - i;
  for (std::size_t i = 0; i < hm.size(); ++i)
    hm[i] = (0xabcdull << 40) + i;
  std::vector<long long> hl(10);
  for (std::size_t i = 0; i < hl.size(); ++i)
    hl[i] = (i % 2 ? -1ll : 1ll) * (1ll << 50) * (long long)(i + 1);
  const std::vector<unsigned> hids = {6, 0, 4};
  f.write("t", h);
  f.write("u", h);
  f.write("s", hs);
  f.write("m", h);
  f.write("mu", hm);
  f.write("ids", hids);
  f.write("l", hl);
  f.write("off", std::vector<unsigned>{6});
  f.engine->run(0);
  expectEqual(f.read<unsigned long long>("ds", 6), refSlice(h, shape, {0}, {2}, {6}), "dynamicSlice");
  expectEqual(f.read<unsigned long long>("u.r", 21), refUpdate(h, hs, shape, {0}, {2}, {6}), "dynamicUpdate");
  std::vector<unsigned long long> wantMs, wantM = h;
  for (std::size_t k = 0; k < hids.size(); ++k)
    for (std::size_t c = 0; c < 3; ++c) {
      wantMs.push_back(h[hids[k] * 3 + c]);
      wantM[hids[k] * 3 + c] = hm[k * 3 + c];
    }
  expectEqual(f.read<unsigned long long>("ms", 9), wantMs, "multiSlice");
  expectEqual(f.read<unsigned long long>("m.r", 21), wantM, "multiUpdate");
  expectEqual(f.read<long long>("ls", 6), refSlice(hl, {5, 2}, {0}, {3}, {6}), "LONGLONG dynamicSlice");
}

void test_errors(void **) {
  Fixture f(4);
  Tensor t = f.var(FLOAT, {6, 4}, "t");
  Tensor off = f.var(UNSIGNED_INT, {1}, "off"), offF = f.var(FLOAT, {1}, "offF");
  Tensor off2d = f.var(UNSIGNED_INT, {1, 1}, "off2d");
  auto &g = f.graph;
  auto &p = f.prog;
  expectThrow<poputil::poplibs_error>([&] { popops::dynamicSlice(g, t, offF, {0}, {1}, p); }, "UNSIGNED_INT or INT");
  expectThrow<poputil::poplibs_error>([&] { popops::dynamicSlice(g, t, off2d, {0}, {1}, p); }, "has shape [1,1]");
  expectThrow<poputil::poplibs_error>([&] { popops::dynamicSlice(g, t, off, {0}, {7}, p); }, "bigger than the dim");
  expectThrow<poputil::poplibs_error>([&] { popops::dynamicSlice(g, t, off, {2}, {1}, p); }, "out of range");
  expectThrow<poputil::poplibs_error>([&] { popops::dynamicSlice(g, t, off, {0}, {1, 1}, p); }, "one size per");
  expectThrow<poputil::poplibs_error>([&] { popops::dynamicSlice(g, t, Tensor(), {0}, {1}, p); }, "invalid");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::dynamicUpdate(g, t, f.var(FLOAT, {2, 3}, "s"), off, {0}, {2}, p); }, "shape");
  expectThrow<poplar::invalid_option>([&] { popops::dynamicSlice(g, t, off, {0}, {1}, p, "", {{"bogus", "1"}}); },
                                      "bogus");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::multiSlice(g, t, off, {0}, {1}, p, popops::SlicePlan(), {}); }, "rank 1");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::multiSlice(g, t, f.var(UNSIGNED_INT, {2, 2}, "o22"), {0, 1}, {1, 1}, p, {}, {}); },
      "one dimension");
  Tensor b = f.var(BOOL, {6, 4}, "b"), bs = f.var(BOOL, {1, 1, 4}, "bs"), bsc = f.var(BOOL, {1}, "bsc");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::multiUpdateAdd(g, b, bs, off2d, bsc, {0}, {1}, p, popops::SlicePlan(), {}); }, "FLOAT, HALF, INT");
  expectThrow<poplar::invalid_option>(
      [&] { popops::embedding::plan(g, FLOAT, 6, 4, {1}, {{"usedForSlice", "false"}, {"usedForUpdate", "false"}}); },
      "both false");
  expectThrow<poplar::invalid_option>(
      [&] { popops::embedding::plan(g, FLOAT, 6, 4, {1}, {{"operationForUpdate", "div"}}); }, "cannot be 'div'");
  // planConstraints (Graphcore's DynamicSliceTest passes one): a JSON object of the planner's split variables is
  // accepted; anything else is refused naming the problem.
  const popops::SlicePlan constrained = popops::embedding::plan(
      g, FLOAT, 6, 4, {1}, {{"planConstraints", R"({"unslicedDimSplit": 6, "slicedDimSplit": 2, "useOrderingInfo": true})"}});
  assert_true(popops::createSliceableTensor(g, FLOAT, {6, 4}, {0}, {1}, constrained, {}).numElements() == 24);
  expectThrow<poplar::invalid_option>(
      [&] { popops::embedding::plan(g, FLOAT, 6, 4, {1}, {{"planConstraints", "{not json"}}); }, "is not valid JSON");
  expectThrow<poplar::invalid_option>(
      [&] { popops::embedding::plan(g, FLOAT, 6, 4, {1}, {{"planConstraints", "[1, 2]"}}); }, "is not a JSON object");
  expectThrow<poplar::invalid_option>(
      [&] { popops::embedding::plan(g, FLOAT, 6, 4, {1}, {{"planConstraints", R"({"tileSplit": 2})"}}); },
      "names 'tileSplit', which is not a slice plan variable");
  expectThrow<poplar::invalid_option>(
      [&] { popops::embedding::plan(g, FLOAT, 6, 4, {1}, {{"planConstraints", R"({"slicedDimSplit": -1})"}}); },
      "gives 'slicedDimSplit' the value -1, not a non-negative integer or boolean");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::dynamicSliceWithOutput(g, f.var(FLOAT, {2, 3}, "o"), t, off, {0}, {2}, p); }, "createSliceTensor");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::createSliceableTensor(g, FLOAT, {4, 4}, {1, 1}, {1, 1}); }, "appears twice");
  Tensor gi = f.var(UNSIGNED_INT, {2, 2}, "gi");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::gather(g, t, gi, 3, {}, {1, 1}, {0, 1}, {0, 1}, p); }, "beyond the indices' rank");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::gather(g, t, gi, 1, {1}, {1, 2}, {0, 1}, {0, 1}, p); }, "slice size is 1");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::gather(g, t, gi, 1, {}, {1, 1}, {0, 1}, {0}, p); }, "start index map has 1");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::gather(g, t, offF, 0, p, popops::GatherParams()); }, "UNSIGNED_INT or INT");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dynamic_slice_offsets_between_runs),
      cmocka_unit_test(test_dynamic_update),
      cmocka_unit_test(test_sliceable_many_tiles_and_types),
      cmocka_unit_test(test_multi_slice_update),
      cmocka_unit_test(test_half_multi_update),
      cmocka_unit_test(test_multi_update_remap),
      cmocka_unit_test(test_many_tiles),
      cmocka_unit_test(test_sliceable_from_slice),
      cmocka_unit_test(test_gather),
      cmocka_unit_test(test_eight_byte_elements),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
