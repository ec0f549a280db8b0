// Pseudo-random numbers inside a pipeline, as upstream's random_float,
// random_int and random_uint: each value is a hash of the coordinates being
// computed (the pure Vars of the definition it appears in, and the RVars of
// an update), of the optional seed, and of the call (every random_*() call
// is its own independent stream). So a Func's values are the same at the
// same point on every run and whatever its schedule, and an inlined Func
// gives the same value wherever it is called at the same point. The hash is
// our own: the values differ from upstream's.
#ifndef HALIDE_RANDOM_H
#define HALIDE_RANDOM_H

#include <string>
#include <vector>

#include "Halide/Expr.h"

namespace Halide {

// Float(32), uniform in [0, 1) (multiples of 2^-24).
Expr random_float(Expr seed = Expr());
// UInt(32), every value equally likely.
Expr random_uint(Expr seed = Expr());
// Int(32), every value equally likely (random_uint's bits).
Expr random_int(Expr seed = Expr());

namespace Internal {
// The random_*() calls of e (intrinsics named "random": args seed if any,
// then the call's id) replaced by hashes of the Int(32) variables
// `free_vars`, the seed, the id and `tag` (one per definition).
Expr lower_random(const Expr &e, const std::vector<std::string> &free_vars, int tag);
// A new tag for lower_random, different from every earlier one.
int next_random_tag();
} // namespace Internal

} // namespace Halide

#endif
