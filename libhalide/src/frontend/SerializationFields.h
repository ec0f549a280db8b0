// The fields of a serialized pipeline's objects, listed once for the
// writer and the reader: each is an "archive" with io() for plain values
// and expressions, and hooks for the names that a reader may rename (a
// deserialized object takes a new name when its old one is still in use).
#ifndef HALIDE_FRONTEND_SERIALIZATION_FIELDS_H
#define HALIDE_FRONTEND_SERIALIZATION_FIELDS_H

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lower/Function.h"

namespace Halide {
namespace Internal {
namespace Serial {

// Archive A provides:
//   io(bool&), io(int&), io(uint64_t&), io(std::string&), io(Expr&), io(Type&)
//   size_t size(size_t n): writes n, or reads a count (n ignored)
//   func_name(std::string&): the name of a Func (or, with any_name, a Func or
//     buffer); local_name(std::string&): a loop or RVar name
//   rdom(ReductionDomainPtr&): a reference to a serialized RDom
template <typename A, typename E> void io_enum(A &a, E &e) {
    int v = (int)e;
    a.io(v);
    e = (E)v;
}

// Declared first: they call one another.
template <typename A> void io(A &a, Expr &e);
template <typename A> void io(A &a, std::string &s);
template <typename A> void io(A &a, Range &r);
template <typename A> void io(A &a, SplitStep &s);
template <typename A> void io(A &a, LoopDim &d);
template <typename A> void io(A &a, Specialization &s);
template <typename A> void io(A &a, std::pair<std::string, LoopAlignStrategy> &p);
template <typename A> void io(A &a, FuseLevel &f);
template <typename A> void io(A &a, UpdateDefinition &u);
template <typename A> void io(A &a, PrefetchRecord &p);
template <typename A> void io(A &a, DimensionConstraint &c);
template <typename A> void io(A &a, std::pair<Expr, Expr> &p);
template <typename A> void io(A &a, std::pair<Expr, bool> &p);

template <typename A, typename T> void io_vec(A &a, std::vector<T> &v) {
    size_t n = a.size(v.size());
    v.resize(n);
    for (T &x : v) {
        io(a, x);
    }
}

template <typename A> void io(A &a, Expr &e) {
    a.io(e);
}
template <typename A> void io(A &a, std::string &s) {
    a.local_name(s);
}

template <typename A> void io(A &a, Range &r) {
    a.io(r.min);
    a.io(r.extent);
}

template <typename A> void io(A &a, SplitStep &s) {
    io_enum(a, s.kind);
    a.local_name(s.old_var);
    a.local_name(s.outer);
    a.local_name(s.inner);
    a.io(s.factor);
    io_enum(a, s.tail);
}

template <typename A> void io(A &a, LoopDim &d) {
    a.local_name(d.name);
    a.local_name(d.var);
    io_enum(a, d.for_type);
    a.io(d.is_rvar);
    io_enum(a, d.partition);
}

template <typename A> void io(A &a, Specialization &s) {
    a.io(s.condition);
    io_vec(a, s.splits);
    io_vec(a, s.dims);
    io_vec(a, s.specializations);
    a.io(s.fails);
    a.io(s.failure_message);
}

template <typename A> void io_level(A &a, std::shared_ptr<LoopLevelContents> &l) {
    bool present = l != nullptr;
    a.io(present);
    if (!present) {
        l = nullptr;
        return;
    }
    if (!l) {
        l = std::make_shared<LoopLevelContents>();
    }
    a.func_name(l->func_name);
    a.local_name(l->var_name);
    a.io(l->is_rvar);
    a.io(l->stage_index);
    a.io(l->locked);
}

template <typename A> void io(A &a, std::pair<std::string, LoopAlignStrategy> &p) {
    a.local_name(p.first);
    io_enum(a, p.second);
}

template <typename A> void io(A &a, FuseLevel &f) {
    a.func_name(f.parent_func);
    a.io(f.parent_stage);
    a.local_name(f.var);
    io_vec(a, f.align);
    io_enum(a, f.all);
    io_level(a, f.level);
}

template <typename A> void io(A &a, UpdateDefinition &u) {
    io_vec(a, u.args);
    io_vec(a, u.values);
    a.rdom(u.rdom);
    io_vec(a, u.pure_vars);
    io_vec(a, u.splits);
    io_vec(a, u.dims);
    a.io(u.allow_race_conditions);
    a.io(u.atomic);
    io_vec(a, u.specializations);
    io(a, u.fuse);
    a.io(u.scheduled);
}

template <typename A> void io(A &a, PrefetchRecord &p) {
    a.io(p.stage);
    a.any_name(p.name);
    a.local_name(p.at);
    a.local_name(p.from);
    a.io(p.offset);
    io_enum(a, p.strategy);
}

template <typename A> void io(A &a, DimensionConstraint &c) {
    a.io(c.min);
    a.io(c.extent);
    a.io(c.stride);
}

template <typename A, typename V> void io_map(A &a, std::map<std::string, V> &m) {
    std::vector<std::pair<std::string, V>> items(m.begin(), m.end());
    size_t n = a.size(items.size());
    items.resize(n);
    m.clear();
    for (auto &kv : items) {
        a.local_name(kv.first);
        io(a, kv.second);
        m.emplace(kv.first, kv.second);
    }
}

template <typename A> void io(A &a, std::pair<Expr, Expr> &p) {
    a.io(p.first);
    a.io(p.second);
}
template <typename A> void io(A &a, std::pair<Expr, bool> &p) {
    a.io(p.first);
    a.io(p.second);
}

// Everything of a Func but its name, wrappers and output buffers (the
// archive handles those).
template <typename A> void io_function_body(A &a, FunctionContents &f) {
    io_vec(a, f.args);
    io_vec(a, f.values);
    io_enum(a, f.compute);
    a.func_name(f.compute_at_func);
    a.local_name(f.compute_at_var);
    a.io(f.compute_at_stage);
    a.io(f.store_at_stage);
    a.io(f.hoist_at_stage);
    io_level(a, f.compute_level);
    io_level(a, f.store_level);
    io_level(a, f.hoist_level);
    io_enum(a, f.store);
    a.func_name(f.store_at_func);
    a.local_name(f.store_at_var);
    io_vec(a, f.splits);
    io_vec(a, f.dims);
    io_vec(a, f.specializations);
    io(a, f.fuse);
    io_vec(a, f.updates);
    a.io(f.frozen);
    io_map(a, f.explicit_bounds);
    io_map(a, f.alignments);
    io_map(a, f.extent_bounds);
    io_map(a, f.extent_alignments);
    io_map(a, f.storage_alignments);
    a.io(f.scheduled);
    io_vec(a, f.prefetches);
    a.io(f.ring_buffer);
    a.io(f.buffer_copy);
    io_vec(a, f.storage_order);
    io_enum(a, f.memory_type);
    io_enum(a, f.hoist);
    a.func_name(f.hoist_at_func);
    a.local_name(f.hoist_at_var);
    io_map(a, f.storage_bounds);
    io_map(a, f.storage_folds);
    io_vec(a, f.estimates);
    a.func_name(f.wraps);
    a.io(f.async);
    a.io(f.memoized);
    a.io(f.memoize_eviction_key);
    a.io(f.trace_loads);
    a.io(f.trace_stores);
    a.io(f.trace_realizations);
    a.io(f.debug_file);
    std::vector<std::string> tags = f.trace_tags;
    size_t n = a.size(tags.size());
    tags.resize(n);
    for (std::string &t : tags) {
        a.io(t);
    }
    f.trace_tags = tags;
    a.io(f.no_profiling);
    io_enum(a, f.device_api);
}

// An input buffer's description (a concrete Buffer's elements apart).
template <typename A> void io_buffer_body(A &a, InputBufferContents &b) {
    io_vec(a, b.estimates);
    io_vec(a, b.constraints);
    a.io(b.host_alignment);
    io_enum(a, b.memory_type);
    a.io(b.trace_loads);
    size_t n = a.size(b.trace_tags.size());
    b.trace_tags.resize(n);
    for (std::string &t : b.trace_tags) {
        a.io(t);
    }
}

// has_value: whether the Param was given a value (ParamValues.h).
template <typename A> void io_param_body(A &a, ParamContents &p) {
    a.io(p.value.u.u64);
    a.io(p.has_value);
    a.io(p.min_value);
    a.io(p.max_value);
    a.io(p.default_value);
    a.io(p.estimate);
}

} // namespace Serial
} // namespace Internal
} // namespace Halide

#endif
