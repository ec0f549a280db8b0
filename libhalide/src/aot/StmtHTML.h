// compile_to_lowered_stmt / compile_to_conceptual_stmt with
// StmtOutputFormat::HTML: the statement's text as a self-contained page.
#ifndef HALIDE_INTERNAL_AOT_STMT_HTML_H
#define HALIDE_INTERNAL_AOT_STMT_HTML_H

#include <string>

namespace Halide {
namespace Internal {

// An HTML page titled "Halide Module: NAME" showing `stmt` (the text
// compile_to_lowered_stmt writes) with its keywords highlighted and each
// block collapsible.
std::string stmt_html(const std::string &name, const std::string &stmt);

} // namespace Internal
} // namespace Halide

#endif
