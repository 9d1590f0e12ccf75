// The process's table of decoded code keyed by content (iss_shared_code.hpp).
// Looked up by pc and first word, then confirmed by comparing the candidate's
// words with the tile's bytes, so a tile that finds its block here decodes
// nothing. Sharded so that the host threads running tiles rarely meet on a lock.
#include "iss_shared_code.hpp"

#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "iss_jit.hpp"

namespace ipu::model {
namespace {

constexpr unsigned kShards = 16;

uint64_t key_of(uint32_t pc, uint32_t first_word)
{
    uint64_t h = (uint64_t{pc} << 32 | first_word) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

// Bytes one entry costs the table: its code, its ops and the map's node.
uint64_t cost_of(const SharedCode &c) { return sizeof c + 4 * c.raw.size() + sizeof(Op) * c.ops.size() + 64; }

struct Shard {
    std::shared_mutex mu;
    std::unordered_map<uint64_t, std::vector<std::shared_ptr<const SharedCode>>> by_key;
    uint64_t entries = 0, bytes = 0;
};

struct Table {
    Shard shards[kShards];
    std::atomic<uint64_t> clears{0};
};

Table &table()
{
    static Table *t = new Table; // never destroyed: blocks of static cards may outlive it
    return *t;
}

Shard &shard_of(uint64_t key) { return table().shards[key % kShards]; }

} // namespace

std::shared_ptr<const SharedCode> find_shared_code(uint32_t pc, const uint8_t *at_pc, uint32_t words)
{
    if (words == 0)
        return nullptr;
    uint32_t first;
    std::memcpy(&first, at_pc, 4);
    const uint64_t key = key_of(pc, first);
    Shard &s = shard_of(key);
    std::shared_lock<std::shared_mutex> lock(s.mu);
    const auto it = s.by_key.find(key);
    if (it == s.by_key.end())
        return nullptr;
    for (const auto &c : it->second)
        if (c->pc == pc && c->raw.size() <= words && std::memcmp(c->raw.data(), at_pc, 4 * c->raw.size()) == 0)
            return c;
    return nullptr;
}

std::shared_ptr<const SharedCode> make_shared_code(uint32_t pc, std::span<const uint32_t> raw,
                                                   std::span<const Op> ops, bool shareable)
{
    auto code = std::make_shared<SharedCode>();
    code->pc = pc;
    code->raw.assign(raw.begin(), raw.end());
    code->ops.assign(ops.begin(), ops.end());
    if (!shareable || raw.empty())
        return code;
    const uint64_t key = key_of(pc, raw[0]);
    Shard &s = shard_of(key);
    std::unique_lock<std::shared_mutex> lock(s.mu);
    auto &list = s.by_key[key];
    for (const auto &c : list) // another tile put the same code here meanwhile: use that one
        if (c->pc == pc && c->raw.size() == raw.size() && std::memcmp(c->raw.data(), raw.data(), 4 * raw.size()) == 0)
            return c;
    const uint64_t cost = cost_of(*code);
    if (s.bytes + cost > kSharedCodeBytes / kShards) {
        // Full: start again. Blocks hold their code, so nothing in use goes;
        // what is dropped is code no tile has decoded since.
        s.by_key.clear();
        s.entries = s.bytes = 0;
        table().clears.fetch_add(1, std::memory_order_relaxed);
        s.by_key[key].push_back(code);
    } else {
        list.push_back(code);
    }
    s.entries++;
    s.bytes += cost;
    return code;
}

JitFn shared_translation(const SharedCode &code, const Block &b, bool traced)
{
    // Translations are dropped only while no ISS call runs (jit_try_reset), and
    // this is called from one, so the generation cannot move under us.
    const unsigned k = traced ? 1 : 0;
    const uint64_t gen = jit_generation() + 1;
    if (code.jit_gen[k].load(std::memory_order_acquire) == gen)
        return code.jit[k].load(std::memory_order_relaxed);
    const JitFn fn = jit_translate(b, traced); // shared by content too: racing tiles get the same code
    code.jit[k].store(fn, std::memory_order_relaxed);
    code.jit_gen[k].store(gen, std::memory_order_release);
    return fn;
}

SharedCodeUse shared_code_use()
{
    SharedCodeUse u;
    for (Shard &s : table().shards) {
        std::shared_lock<std::shared_mutex> lock(s.mu);
        u.entries += s.entries;
        u.bytes += s.bytes;
    }
    u.clears = table().clears.load(std::memory_order_relaxed);
    return u;
}

} // namespace ipu::model
