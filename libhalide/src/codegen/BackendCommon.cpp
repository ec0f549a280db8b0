// See BackendCommon.h.
#include "codegen/BackendCommon.h"

#include <algorithm>
#include <cstring>

#include "Halide/Error.h"

namespace Halide {
namespace Internal {

bool is_intrinsic_stmt(const Stmt &s, const char *name) {
    const Evaluate *e = s.as<Evaluate>();
    const Call *c = e ? e->value.as<Call>() : nullptr;
    return c && c->call_type == Call::Intrinsic && c->name == name;
}

std::vector<const For *> async_task_loops(const Block *fork) {
    std::vector<const For *> loops;
    for (Stmt rest = fork->rest; rest.defined();) {
        const Block *b = rest.as<Block>();
        const For *f = (b ? b->first : rest).as<For>();
        internal_assert(f) << "async_fork: every task is a loop";
        const Block *body = f->body.as<Block>();
        internal_assert(body && is_intrinsic_stmt(body->first, "task_acquires")) << "async_fork: task without acquires";
        loops.push_back(f);
        rest = b ? b->rest : Stmt();
    }
    const Expr &count = fork->first.as<Evaluate>()->value.as<Call>()->args.at(0);
    internal_assert(count.as<IntImm>() && (size_t)count.as<IntImm>()->value == loops.size())
        << "async_fork: task count mismatch";
    return loops;
}

const std::vector<Expr> &task_semaphores(const For *loop) {
    return loop->body.as<Block>()->first.as<Evaluate>()->value.as<Call>()->args;
}

const Stmt &task_work(const For *loop) {
    return loop->body.as<Block>()->rest;
}

const Ramp *dense_ramp(const Expr &index) {
    const Ramp *r = index.as<Ramp>();
    const IntImm *stride = r ? r->stride.as<IntImm>() : nullptr;
    return stride && stride->value == 1 ? r : nullptr;
}

std::string embedded_contents(const EmbeddedBuffer &e, int64_t *host_offset) {
    const halide_buffer_t &b = *e.buffer;
    user_assert(b.host || b.dimensions == 0)
        << "Buffer '" << e.name
        << "' has no host memory: AOT code can only embed a Buffer whose contents are on the host";
    // The elements between the lowest and the highest one addressed.
    int64_t lo = 0, hi = 0;
    for (int d = 0; d < b.dimensions; d++) {
        if (b.dim[d].extent <= 0) {
            lo = hi = 0;
            break;
        }
        int64_t span = (int64_t)(b.dim[d].extent - 1) * b.dim[d].stride;
        (span < 0 ? lo : hi) += span;
    }
    int64_t elem = (b.type.bits + 7) / 8;
    std::string bytes((size_t)((hi - lo + 1) * elem), '\0');
    if (b.host) {
        std::memcpy(&bytes[0], b.host + lo * elem, bytes.size());
    }
    *host_offset = -lo * elem;
    return bytes;
}

bool scalar_constant_bits(const Expr &value, const Type &t, uint64_t *bits) {
    if (!value.defined() || t.is_handle()) {
        return false;
    }
    if (const IntImm *i = value.as<IntImm>()) {
        *bits = (uint64_t)i->value;
    } else if (const UIntImm *u = value.as<UIntImm>()) {
        *bits = u->value;
    } else if (const FloatImm *f = value.as<FloatImm>()) {
        if (t.bits() == 32) {
            float v = (float)f->value;
            uint32_t b32;
            std::memcpy(&b32, &v, 4);
            *bits = b32;
        } else {
            std::memcpy(bits, &f->value, 8);
        }
    } else {
        return false;
    }
    if (t.bits() < 64) { // the union's member is at offset 0: keep the low bytes only
        *bits &= (uint64_t(1) << (t.bits() == 1 ? 8 : t.bits())) - 1;
    }
    return true;
}

} // namespace Internal
} // namespace Halide
