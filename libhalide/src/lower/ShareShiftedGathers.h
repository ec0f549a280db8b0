// Gathers of one buffer that a store's value reads at the same lane-wise
// function of ramps shifted by constants (the taps of a stencil through a
// boundary condition's mirrored or wrapped coordinate) become slice_vector
// shuffles of one wider gather, bound by a LetStmt around the store, which
// reads only lanes they read; masked loads and atomic stores are left alone.
// Runs after vectorization.
#ifndef HALIDE_LOWER_SHARE_SHIFTED_GATHERS_H
#define HALIDE_LOWER_SHARE_SHIFTED_GATHERS_H

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

Stmt share_shifted_gathers(const Stmt &s);

} // namespace Internal
} // namespace Halide

#endif
