// Expressions built by reusing an Expr value (e = e * e + y, again and
// again) are graphs whose trees are exponentially larger: every pass walks
// IR as a tree. share_repeated_subexpressions binds the repeated parts of
// such an expression in lets, so its tree is as small as its graph.
#ifndef HALIDE_IR_SHARE_SUBEXPRESSIONS_H
#define HALIDE_IR_SHARE_SUBEXPRESSIONS_H

#include <cstdint>
#include <map>
#include <string>

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

// The number of nodes of e walked as a tree (saturating at UINT64_MAX),
// counted over its graph: linear in the graph's size. A variable named in
// `let_sizes` counts as that many nodes (the size of the let it names, as
// if expanded).
uint64_t tree_size(const Expr &e, const std::map<std::string, uint64_t> *let_sizes = nullptr);

// e with each subexpression it reaches by more than one path bound in a
// let (`<prefix>N`), when its tree is past `min_tree` nodes and larger than
// its graph; otherwise e itself. Leaves (variables, constants) and parts
// with calls or lets in them are not bound: a call may be impure or be a
// Func's (which bounds inference follows), and a let's names are scoped.
Expr share_repeated_subexpressions(const Expr &e, uint64_t min_tree = 4096);

} // namespace Internal
} // namespace Halide

#endif
