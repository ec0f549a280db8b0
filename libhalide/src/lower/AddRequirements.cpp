// Pipeline::add_requirement(): each condition becomes an assertion at the
// top of the pipeline, failing through halide_error_requirement_failed with
// the condition's text and the message's values (a "stringify" intrinsic:
// the values printed one after another, separated by spaces).
#include <sstream>
#include <string>

#include "Halide/IRPrinter.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {

namespace {

// The condition as the error message shows it, inside the runtime's own
// parentheses: without the printer's outer pair, which would double them.
std::string condition_text(const Expr &condition) {
    std::ostringstream out;
    out << condition;
    std::string text = out.str();
    if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
        return text;
    }
    int depth = 0;
    for (size_t i = 0; i + 1 < text.size(); i++) {
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        if (depth == 0) {
            return text; // the first '(' closes before the end: "(a) && (b)"
        }
    }
    return text.substr(1, text.size() - 2);
}

} // namespace

Stmt add_requirements(const Stmt &s, const std::vector<std::pair<Expr, std::vector<Expr>>> &requirements) {
    if (requirements.empty()) {
        return s;
    }
    std::vector<Stmt> checks;
    for (const auto &[condition, parts] : requirements) {
        Expr message =
            parts.empty() ? Expr(StringImm::make("")) : Call::make(Handle(), "stringify", parts, Call::Intrinsic);
        Expr error = Call::make(
            Int(32), "halide_error_requirement_failed",
            {Variable::make(Handle(), "__user_context"), StringImm::make(condition_text(condition)), message},
            Call::Extern);
        checks.push_back(AssertStmt::make(condition, error));
    }
    checks.push_back(s);
    return Block::make(checks);
}

} // namespace Internal
} // namespace Halide
