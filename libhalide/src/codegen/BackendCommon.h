// What both code generators (the LLVM one, CodeGen_LLVM*.cpp, and the C++
// source one, codegen_c/) read the same way from the lowered IR and from
// embedded buffers. No LLVM types here.
#ifndef HALIDE_INTERNAL_BACKEND_COMMON_H
#define HALIDE_INTERNAL_BACKEND_COMMON_H

#include <cstdint>
#include <string>
#include <vector>

#include "Halide/IR.h"
#include "Halide/LoweredFunc.h"
#include "HalideRuntime.h"

namespace Halide {
namespace Internal {

// Whether s is Evaluate(intrinsic `name`(...)).
bool is_intrinsic_stmt(const Stmt &s, const char *name);

// The task loops of `async_fork(n); loop; loop; ...` (lower/AsyncProducers.cpp),
// each `for (v, min, extent) { task_acquires(sems...); work }`.
std::vector<const For *> async_task_loops(const Block *fork);
// A task loop's semaphores (task_acquires' arguments) and its work.
const std::vector<Expr> &task_semaphores(const For *loop);
const Stmt &task_work(const For *loop);

// A ramp of stride 1 (the lanes are adjacent elements), else null.
const Ramp *dense_ramp(const Expr &index);

// A copy of the bytes of e's host memory that its dimensions reach, as AOT
// code embeds them; `*host_offset` is where `host` points in it. A Buffer
// without host memory is a CompileError.
std::string embedded_contents(const EmbeddedBuffer &e, int64_t *host_offset);

// The bits of a constant scalar of type t as halide_scalar_value_t holds it
// (the low bytes of the union); false if value is not a constant (or t is
// a handle).
bool scalar_constant_bits(const Expr &value, const Type &t, uint64_t *bits);

} // namespace Internal
} // namespace Halide

#endif
