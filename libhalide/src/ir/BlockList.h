// A sequence of Blocks as the list of statements it runs, in order, for
// passes that place something after the last statement doing X.
#ifndef HALIDE_INTERNAL_BLOCK_LIST_H
#define HALIDE_INTERNAL_BLOCK_LIST_H

#include <vector>

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

inline void append_block_statements(const Stmt &s, std::vector<Stmt> &out) {
    if (const Block *b = s.as<Block>()) {
        append_block_statements(b->first, out);
        append_block_statements(b->rest, out);
    } else if (s.defined()) {
        out.push_back(s);
    }
}

inline std::vector<Stmt> block_statements(const Stmt &s) {
    std::vector<Stmt> out;
    append_block_statements(s, out);
    return out;
}

} // namespace Internal
} // namespace Halide

#endif
