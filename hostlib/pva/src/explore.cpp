// popvis: the explorable views (explore.hpp): the report's figures as JSON, and the inline script that draws them.
#include "explore.hpp"

#include <algorithm>
#include <sstream>

#include "html_escape.hpp"

namespace popvis {

namespace {

using poplar::ProfileValue;

std::uint64_t at(const ProfileValue &v, std::size_t i) { return i < v.size() ? v[i].asUInt() : 0; }

/// The JSON as script text: "</" written as "<\/" so that no name in it can close the script element.
std::string scriptJson(const nlohmann::json &j) {
  std::string s = j.dump(), out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    if (s[i] == '<' && i + 1 < s.size() && s[i + 1] == '/')
      out += '\\';
  }
  return out;
}

// The views' script. It reads the JSON in #popvis-data and answers the controls: a click on a tile's bar (or the
// tile number box) fills #tile-detail; the wheel, drag and the zoom buttons change the timeline's visible cycle
// range; the step list fills #liveness-detail.
const char *kScript = R"JS(
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('popvis-data').textContent);
  var NS = 'http://www.w3.org/2000/svg';
  function fmt(n) { return Number(n).toLocaleString('en-US'); }
  function el(tag, attrs, text) {
    var e = tag.indexOf('svg:') === 0 ? document.createElementNS(NS, tag.slice(4)) : document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function row(table, cells, attrs) {
    var tr = el('tr', attrs || {});
    cells.forEach(function (c, i) { tr.appendChild(el('td', i ? {} : {'class': 'l'}, c)); });
    table.appendChild(tr);
    return tr;
  }

  // Tile view.
  function showTile(t) {
    var box = document.getElementById('tile-detail');
    box.textContent = '';
    if (!(t >= 0 && t < D.numTiles)) { box.textContent = 'No tile ' + t + ' (0 to ' + (D.numTiles - 1) + ')'; return; }
    box.setAttribute('data-tile', t);
    var total = 0, mem = el('table', {id: 'tile-memory'}), cats = Object.keys(D.categories);
    mem.appendChild(el('tr')).innerHTML = '<th class="l">Category</th><th>Bytes</th>';
    cats.sort(function (a, b) { return D.categories[b][t] - D.categories[a][t]; }).forEach(function (c) {
      var b = D.categories[c][t];
      total += b;
      if (b) row(mem, [c, fmt(b)], {'data-category': c, 'data-bytes': b});
    });
    row(mem, ['total', fmt(total)], {'data-category': 'total', 'data-bytes': total});
    var vx = el('table', {id: 'tile-vertices'}), n = 0;
    vx.appendChild(el('tr')).innerHTML = '<th class="l">Vertex type</th><th>Vertices</th>';
    D.vertexTypes.forEach(function (name, i) {
      var c = D.verticesByType[i][t];
      n += c;
      if (c) row(vx, [name, fmt(c)], {'data-type': name, 'data-count': c});
    });
    box.appendChild(el('h3', {}, 'Tile ' + t + ': ' + fmt(total) + ' B, ' + fmt(n) + ' vertices'));
    box.appendChild(mem);
    box.appendChild(vx);
    document.querySelectorAll('#memory-per-tile rect[data-tile]').forEach(function (r) {
      r.setAttribute('stroke', +r.getAttribute('data-tile') === t ? '#e15759' : 'none');
    });
  }
  document.querySelectorAll('#memory-per-tile rect[data-tile]').forEach(function (r) {
    r.addEventListener('click', function () { showTile(+r.getAttribute('data-tile')); });
  });
  var tileBox = document.getElementById('tile-select');
  tileBox.addEventListener('change', function () { showTile(parseInt(tileBox.value, 10)); });

  // Execution timeline: the visible range [v0, v1) in cycles; zoom keeps the cycle under the pointer in place.
  var svg = document.getElementById('step-timeline');
  if (svg && D.steps.length) {
    var W = 900, L = 10, v0 = 0, v1 = Math.max(D.totalCycles, 1), drag = null;
    var colours = {OnTileExecute: '#4e79a7', DoExchange: '#f28e2b', StreamCopy: '#59a14f'};
    var draw = function () {
      svg.textContent = '';
      var k = W / (v1 - v0), shown = 0;
      D.steps.forEach(function (s, i) {
        if (s.to < v0 || s.from > v1) return;
        var x = L + (s.from - v0) * k, w = Math.max((s.to - s.from) * k, 1);
        var r = el('svg:rect', {x: x, y: 10, width: w, height: 40, fill: colours[s.type] || '#b07aa1',
                                'class': 'step', 'data-step': i});
        r.appendChild(el('svg:title', {}, s.type + ' ' + s.name + ': ' + fmt(s.cycles) + ' cycles estimated' +
                         (s.measured === null ? '' : ', ' + fmt(s.measured) + ' measured')));
        r.addEventListener('click', function () { showStep(i); });
        svg.appendChild(r);
        if (w > 60) svg.appendChild(el('svg:text', {x: x + 2, y: 64, 'font-size': 10}, s.name.slice(0, w / 6)));
        shown++;
      });
      svg.appendChild(el('svg:text', {x: L, y: 82, 'font-size': 11}, fmt(Math.round(v0))));
      svg.appendChild(el('svg:text', {x: W - 60, y: 82, 'font-size': 11}, fmt(Math.round(v1))));
      var range = document.getElementById('timeline-range');
      range.setAttribute('data-from', Math.round(v0));
      range.setAttribute('data-to', Math.round(v1));
      range.setAttribute('data-shown', shown);
      range.textContent = 'cycles ' + fmt(Math.round(v0)) + ' to ' + fmt(Math.round(v1)) + ' (' + shown + ' steps)';
    };
    var zoom = function (factor, at) {
      var span = Math.min((v1 - v0) * factor, D.totalCycles), c = v0 + (v1 - v0) * at;
      v0 = Math.max(0, c - span * at);
      v1 = Math.min(D.totalCycles, v0 + Math.max(span, 1));
      v0 = Math.max(0, v1 - Math.max(span, 1));
      draw();
    };
    var pan = function (cycles) {
      var span = v1 - v0;
      v0 = Math.min(Math.max(0, v0 + cycles), Math.max(D.totalCycles - span, 0));
      v1 = v0 + span;
      draw();
    };
    svg.addEventListener('wheel', function (e) {
      e.preventDefault();
      var box = svg.getBoundingClientRect(), at = Math.min(Math.max((e.clientX - box.left - L) / W, 0), 1);
      zoom(e.deltaY < 0 ? 0.5 : 2, at);
    });
    svg.addEventListener('mousedown', function (e) { drag = e.clientX; });
    window.addEventListener('mouseup', function () { drag = null; });
    svg.addEventListener('mousemove', function (e) {
      if (drag === null) return;
      pan(-(e.clientX - drag) * (v1 - v0) / W);
      drag = e.clientX;
    });
    document.getElementById('zoom-in').addEventListener('click', function () { zoom(0.5, 0.5); });
    document.getElementById('zoom-out').addEventListener('click', function () { zoom(2, 0.5); });
    document.getElementById('pan-left').addEventListener('click', function () { pan(-(v1 - v0) / 4); });
    document.getElementById('pan-right').addEventListener('click', function () { pan((v1 - v0) / 4); });
    document.getElementById('zoom-reset').addEventListener('click', function () { v0 = 0; v1 = D.totalCycles; draw(); });
    var showStep = function (i) {
      var s = D.steps[i], box = document.getElementById('step-detail');
      box.setAttribute('data-step', i);
      box.textContent = s.type + ' ' + s.name + ': cycles ' + fmt(s.from) + ' to ' + fmt(s.to) + ', ' +
          fmt(s.cycles) + ' estimated, ' + (s.measured === null ? 'not measured' : fmt(s.measured) + ' measured') +
          ', ' + s.tiles + ' tiles';
    };
    draw();
  }

  // Liveness view.
  var pick = document.getElementById('liveness-step');
  D.liveness.forEach(function (p, pi) {
    p.steps.forEach(function (s, si) {
      pick.appendChild(el('option', {value: pi + ':' + si}, 'program ' + p.program + ', step ' + si + ': ' +
                          s.name.trim() + ' (' + fmt(s.liveBytes) + ' B live)'));
    });
  });
  var showLive = function () {
    var parts = pick.value.split(':'), s = D.liveness[+parts[0]].steps[+parts[1]];
    var box = document.getElementById('liveness-detail'), t = el('table', {id: 'liveness-vars'}), sum = 0;
    box.textContent = '';
    box.setAttribute('data-step', pick.value);
    t.appendChild(el('tr')).innerHTML = '<th class="l">Variable</th><th>Bytes</th>';
    s.vars.slice().sort(function (a, b) { return D.variables.bytes[b] - D.variables.bytes[a]; }).forEach(function (v) {
      sum += D.variables.bytes[v];
      row(t, [D.variables.names[v], fmt(D.variables.bytes[v])],
          {'data-var': D.variables.names[v], 'data-bytes': D.variables.bytes[v]});
    });
    box.appendChild(el('p', {}, s.name.trim() + ': ' + fmt(s.liveBytes) + ' B live on all tiles; ' + s.vars.length +
                        ' graph variables in use here, ' + fmt(sum) + ' B'));
    box.appendChild(t);
  };
  pick.addEventListener('change', showLive);
  if (pick.options.length) showLive();
})();
)JS";

} // namespace

nlohmann::json exploreData(const pva::Report &r) {
  const ProfileValue &g = r.graphProfile();
  nlohmann::json d;
  d["numTiles"] = r.numTiles();
  d["totalCycles"] = r.totalCycles();
  // Per tile, each category's bytes (the graph profile's memory.byCategory.<name>.total).
  nlohmann::json cats = nlohmann::json::object();
  for (const auto &[name, c] : g["memory"]["byCategory"].asMap()) {
    std::vector<std::uint64_t> v(r.numTiles());
    for (std::size_t t = 0; t < v.size(); ++t)
      v[t] = at(c["total"], t);
    cats[name] = v;
  }
  d["categories"] = cats;
  // Vertices of each type per tile: the profile's vertex state bytes of the type on the tile over the type's state
  // size (the writer adds one state size per vertex, so the quotient is the count).
  nlohmann::json types = nlohmann::json::array(), counts = nlohmann::json::array();
  const auto &names = g["vertexTypes"]["names"];
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::uint64_t size = std::max<std::uint64_t>(at(g["vertexTypes"]["sizes"], i), 1);
    std::vector<std::uint64_t> v(r.numTiles());
    for (std::size_t t = 0; t < v.size(); ++t)
      v[t] = at(g["memory"]["byVertexType"]["vertexDataBytes"][i], t) / size;
    types.push_back(names[i].asString());
    counts.push_back(v);
  }
  d["vertexTypes"] = types;
  d["verticesByType"] = counts;
  // Execution steps: the time model's (estimated) cycles, and the RV32-measured ones when the profile has them.
  nlohmann::json steps = nlohmann::json::array();
  if (r.hasExecution())
    for (const auto &s : r.executionProfile()["simulation"]["steps"].asVector()) {
      nlohmann::json j = {{"type", s["type"].asString()},
                          {"name", s.contains("name") ? s["name"].asString() : std::string()},
                          {"from", s["cyclesFrom"].asUInt()},
                          {"to", s["cyclesTo"].asUInt()},
                          {"cycles", s["cycles"].asUInt()},
                          {"tiles", s["activeTiles"].asUInt()}};
      j["measured"] = s.contains("measuredCycles") ? nlohmann::json(s["measuredCycles"].asUInt()) : nlohmann::json();
      steps.push_back(j);
    }
  d["steps"] = steps;
  // Liveness: per program step, bytes live and the graph variables in use (memory.liveness in the graph profile).
  const auto &live = g["memory"]["liveness"];
  nlohmann::json vars = {{"names", nlohmann::json::array()}, {"bytes", nlohmann::json::array()}};
  if (live.contains("variables"))
    for (std::size_t i = 0; i < live["variables"]["names"].size(); ++i) {
      vars["names"].push_back(live["variables"]["names"][i].asString());
      vars["bytes"].push_back(live["variables"]["bytes"][i].asUInt());
    }
  d["variables"] = vars;
  nlohmann::json programs = nlohmann::json::array();
  for (const auto &p : live["byProgram"].asVector()) {
    nlohmann::json ps = nlohmann::json::array();
    for (std::size_t i = 0; i < p["stepNames"].size(); ++i) {
      std::vector<std::uint64_t> in;
      if (p.contains("liveVariables") && i < p["liveVariables"].size())
        in = p["liveVariables"][i].toUintVector();
      ps.push_back({{"name", p["stepNames"][i].asString()}, {"liveBytes", at(p["liveBytes"], i)}, {"vars", in}});
    }
    programs.push_back({{"program", p["program"].asUInt()}, {"steps", ps}});
  }
  d["liveness"] = programs;
  return d;
}

std::string exploreSection(const nlohmann::json &data) {
  std::ostringstream os;
  os << "<h2>Tile</h2>\n<p>Choose a tile: click its bar in the memory chart, or give its number "
        "<input id=\"tile-select\" type=\"number\" min=\"0\" max=\""
     << data["numTiles"].get<unsigned>() - 1 << "\"></p>\n<div id=\"tile-detail\">No tile chosen</div>\n";
  if (!data["steps"].empty())
    os << "<h2>Execution timeline (zoom: wheel or buttons; pan: drag or buttons; click a step)</h2>\n"
          "<p><button id=\"zoom-in\">zoom in</button> <button id=\"zoom-out\">zoom out</button> "
          "<button id=\"pan-left\">&larr;</button> <button id=\"pan-right\">&rarr;</button> "
          "<button id=\"zoom-reset\">whole run</button> <span id=\"timeline-range\"></span></p>\n"
          "<svg id=\"step-timeline\" class=\"chart\" width=\"920\" height=\"90\" "
          "xmlns=\"http://www.w3.org/2000/svg\" style=\"cursor:grab\"></svg>\n"
          "<p id=\"step-detail\">Click a step for its cycles.</p>\n";
  os << "<h2>Variables live at a program step</h2>\n<p><select id=\"liveness-step\"></select></p>\n"
        "<div id=\"liveness-detail\"></div>\n"
     << "<script type=\"application/json\" id=\"popvis-data\">" << scriptJson(data) << "</script>\n"
     << "<script>" << kScript << "</script>\n";
  return os.str();
}

} // namespace popvis
