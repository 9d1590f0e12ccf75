// Internal: template part of steps.hpp.
#pragma once

namespace poplar::detail::ir {

template <typename Fn> void forEachStep(const Body &body, Fn &&fn, unsigned depth) {
  for (const Step &s : body) {
    fn(s, depth);
    if (auto *r = std::get_if<RepeatStep>(&s)) {
      forEachStep(r->body, fn, depth + 1);
    } else if (auto *i = std::get_if<IfStep>(&s)) {
      forEachStep(i->thenBody, fn, depth + 1);
      forEachStep(i->elseBody, fn, depth + 1);
    } else if (auto *w = std::get_if<SwitchStep>(&s)) {
      for (const Body &c : w->cases)
        forEachStep(c, fn, depth + 1);
      forEachStep(w->defaultBody, fn, depth + 1);
    } else if (auto *l = std::get_if<WhileStep>(&s)) {
      forEachStep(l->condition, fn, depth + 1);
      forEachStep(l->body, fn, depth + 1);
    }
  }
}

} // namespace poplar::detail::ir
