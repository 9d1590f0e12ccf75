// The C++ side of backend.h: an embodiment or decorator written as a class,
// and the C operations table made from its member functions.
//
// Why: the table has ten operations, most of which an embodiment does not
// offer (save/restore, fault injection) and a decorator only passes on. With
// ops_of<T>() a class writes only the operations it has; the others come from
// its base: Card (each optional operation refused, as backend.h asks) or
// Forwarding (each operation passed to the card it wraps). C++ only; the C
// interface stays backend.h.
#ifndef IPU_CARD_BACKEND_CLASS_HPP
#define IPU_CARD_BACKEND_CLASS_HPP

#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "ipu_card/backend.h"

namespace ipu::backend {

// The base of every card class: the C header first (so the C interface and
// the class convert into each other), then the defaults of the operations a
// card may leave out. A derived class hides the ones it offers.
struct Card {
    ipu_backend base;
    explicit Card(const ipu_backend_ops *ops = nullptr) : base{ops} {}

    int set_retire_observer(ipu_retire_observer, void *) { return -ENOTSUP; }
    size_t save_size() { return 0; }
    int save(void *, size_t) { return -ENOTSUP; }
    int restore(const void *, size_t) { return -ENOTSUP; }
    int inject(const ipu_backend_faults *) { return -ENOTSUP; }
    int injected(ipu_backend_faults *) { return -ENOTSUP; }
};

// The card class T behind a C handle made by ops_of<T>().
template <class T> T *card_of(ipu_backend *b) { return static_cast<T *>(reinterpret_cast<Card *>(b)); }

// A decorator: every operation goes to `inner`, which it owns. A derived
// class hides the operations it changes.
struct Forwarding : Card {
    ipu_backend *inner = nullptr;
    using Card::Card;
    Forwarding(const Forwarding &) = delete;
    Forwarding &operator=(const Forwarding &) = delete;
    ~Forwarding() { release_inner(); }

    // Destroys the wrapped card now (a decorator that must outlive it calls this).
    void release_inner()
    {
        if (inner)
            inner->ops->destroy(inner);
        inner = nullptr;
    }
    int bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value)
    {
        return inner->ops->bar_read(inner, bar, offset, size, value);
    }
    int bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value)
    {
        return inner->ops->bar_write(inner, bar, offset, size, value);
    }
    int advance(uint64_t budget) { return inner->ops->advance(inner, budget); }
    int set_retire_observer(ipu_retire_observer observer, void *opaque)
    {
        return inner->ops->set_retire_observer(inner, observer, opaque);
    }
    size_t save_size() { return inner->ops->save_size(inner); }
    int save(void *buf, size_t len) { return inner->ops->save(inner, buf, len); }
    int restore(const void *buf, size_t len) { return inner->ops->restore(inner, buf, len); }
    int inject(const ipu_backend_faults *faults) { return ipu_backend_inject(inner, faults); }
    int injected(ipu_backend_faults *faults) { return ipu_backend_injected(inner, faults); }
};

// The operations table of card class T (derived from Card or Forwarding):
// each entry calls T's member of the same name; destroy deletes the T.
template <class T> constexpr ipu_backend_ops ops_of(const char *name)
{
    return ipu_backend_ops{
        .name = name,
        .bar_read = [](ipu_backend *b, unsigned bar, uint64_t offset, unsigned size, uint64_t *value) {
            return card_of<T>(b)->bar_read(bar, offset, size, value);
        },
        .bar_write = [](ipu_backend *b, unsigned bar, uint64_t offset, unsigned size, uint64_t value) {
            return card_of<T>(b)->bar_write(bar, offset, size, value);
        },
        .advance = [](ipu_backend *b, uint64_t budget) { return card_of<T>(b)->advance(budget); },
        .destroy = [](ipu_backend *b) { delete card_of<T>(b); },
        .set_retire_observer = [](ipu_backend *b, ipu_retire_observer observer, void *opaque) {
            return card_of<T>(b)->set_retire_observer(observer, opaque);
        },
        .save_size = [](ipu_backend *b) { return card_of<T>(b)->save_size(); },
        .save = [](ipu_backend *b, void *buf, size_t len) { return card_of<T>(b)->save(buf, len); },
        .restore = [](ipu_backend *b, const void *buf, size_t len) { return card_of<T>(b)->restore(buf, len); },
        .inject = [](ipu_backend *b, const ipu_backend_faults *f) { return card_of<T>(b)->inject(f); },
        .injected = [](ipu_backend *b, ipu_backend_faults *f) { return card_of<T>(b)->injected(f); },
    };
}

} // namespace ipu::backend

#endif // IPU_CARD_BACKEND_CLASS_HPP
