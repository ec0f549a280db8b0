// The fixed first part of the C++ source the C backend writes (CodeGen_C.h):
// includes, and one helper per operation whose Halide meaning differs from
// C++'s (wrap-around integers, never-trapping Euclidean division, shifts,
// casts to bool) or that acts on vectors, which are structs of lanes
// operated on lane by lane.
#ifndef HALIDE_INTERNAL_C_PRELUDE_H
#define HALIDE_INTERNAL_C_PRELUDE_H

namespace Halide {
namespace Internal {

const char *c_source_prelude();

} // namespace Internal
} // namespace Halide

#endif
