// The emitter behind codegen_c_source (CodeGen_C.h), shared by the files
// it is split into:
//
//   CodeGen_C.cpp        the driver, C types and names, the entry points,
//                        NAME_argv, NAME_metadata and embedded buffers
//   CodeGen_C_Exprs.cpp  expressions: arithmetic, loads, vectors, calls
//                        and intrinsics
//   CodeGen_C_Stmts.cpp  statements: lets, asserts, loops (parallel ones
//                        through halide_do_par_for), stores, allocations
//
// Each expression is computed once into a local constant (t<N>), in the
// order the LLVM backend evaluates it, so the text stays linear in the IR's
// size and calls with side effects (print, require) happen where they
// would. Halide names map to fresh C identifiers per binding.
#ifndef HALIDE_INTERNAL_CODEGEN_C_INTERNAL_H
#define HALIDE_INTERNAL_CODEGEN_C_INTERNAL_H

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "Halide/IR.h"
#include "Halide/LoweredFunc.h"

namespace Halide {
namespace Internal {

class CodeGen_C {
public:
    // One function's NAME, NAME_argv and NAME_metadata (with
    // `target_string`), appended to `out_`; C++ names inside `namespaces`
    // when `mangle`, else extern "C".
    void compile(const LoweredFunc &f, const std::string &target_string, bool mangle,
                 const std::vector<std::string> &namespaces);
    // Everything compiled so far: declarations of the extern functions
    // called, then the functions.
    std::string text() const;

    // The C type of a value of type t (vectors are hv<T, lanes>).
    static std::string c_type(const Type &t);
    // `s` as a C string literal.
    static std::string c_string(const std::string &s);

private:
    // ---------------------------------------------- CodeGen_C.cpp
    std::string entry_signature(const LoweredFunc &f, const std::string &name) const;
    void emit_argv(const LoweredFunc &f);
    void emit_metadata(const LoweredFunc &f, const std::string &target_string);
    // A static halide_buffer_t over a copy of e's contents; its name.
    std::string embedded_buffer(const EmbeddedBuffer &e);

    // A fresh C identifier mentioning `hint`.
    std::string fresh(const std::string &hint);
    void push(const std::string &name, const std::string &c) { symbols_[name].push_back(c); }
    void pop(const std::string &name);
    std::string sym(const std::string &name) const;
    // Writes one line of the current function at the current indentation.
    std::ostream &line();

    // ---------------------------------------------- CodeGen_C_Exprs.cpp
    // The C text of e's value: a literal, an identifier, or a temporary
    // holding it (statements computing it are written first).
    std::string expr(const Expr &e);
    std::string compute(const Expr &e);
    // `value` (of type t) into a new constant; its name.
    std::string temp(const Type &t, const std::string &value);
    std::string literal(const Expr &e);
    std::string load(const Load *op);
    std::string call(const Call *op);
    std::string call_extern(const Call *op);
    std::string call_intrinsic(const Call *op);
    std::string buffer_intrinsic(const Call *op);
    // trace_event / trace_value through halide_trace_helper.
    std::string trace(const Call *op);
    // snprintf of args[first, last) (strings and numbers, joined by `sep`,
    // then `end`) into a stack buffer; the buffer's name.
    std::string format_text(const std::vector<Expr> &args, size_t first, size_t last, const char *sep, const char *end);
    // A pointer argument of a C function (any pointer type).
    std::string as_arg(const Expr &e);
    // An extern function not declared by the included headers: declared
    // extern "C" from its call's types.
    void declare_extern(const Call *op);

    // ---------------------------------------------- CodeGen_C_Stmts.cpp
    void stmt(const Stmt &s);
    void for_loop(const For *op);
    void async_fork(const Block *op);
    void store(const Store *op);
    void allocate(const Allocate *op);
    void open_scope();
    void close_scope();

    // ---------------------------------------------- state
    std::ostringstream decls_, out_;
    std::set<std::string> declared_;
    std::ostringstream *body_ = nullptr; // the function being written
    int indent_ = 0;
    int counter_ = 0;
    std::string func_name_;
    std::map<std::string, std::vector<std::string>> symbols_;
};

} // namespace Internal
} // namespace Halide

#endif
