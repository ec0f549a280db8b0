// Pipeline::add_requirement(): each condition becomes an assertion at the
// top of the pipeline, failing through halide_error_requirement_failed with
// the message's values (a "stringify" intrinsic: the values printed one after
// another, separated by spaces). As upstream's, the message shows the
// condition as "(false)", as require() does, not its text.
#include <string>

#include "lower/Passes.h"

namespace Halide {
namespace Internal {

Stmt add_requirements(const Stmt &s, const std::vector<std::pair<Expr, std::vector<Expr>>> &requirements) {
    if (requirements.empty()) {
        return s;
    }
    std::vector<Stmt> checks;
    for (const auto &[condition, parts] : requirements) {
        Expr message =
            parts.empty() ? Expr(StringImm::make("")) : Call::make(Handle(), "stringify", parts, Call::Intrinsic);
        Expr error =
            Call::make(Int(32), "halide_error_requirement_failed",
                       {Variable::make(Handle(), "__user_context"), StringImm::make("false"), message}, Call::Extern);
        checks.push_back(AssertStmt::make(condition, error));
    }
    checks.push_back(s);
    return Block::make(checks);
}

} // namespace Internal
} // namespace Halide
