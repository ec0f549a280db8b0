// Statements of the C source backend. Scopes are C++ blocks: a heap
// allocation is freed by a guard object when its block ends, early
// returns (a failed assert or require, a failed parallel task) included.
// A parallel loop's body is a lambda capturing the enclosing variables by
// reference, run through halide_do_par_for by a plain task function.
#include "Halide/Error.h"
#include "Halide/IR.h"
#include "codegen/BackendCommon.h"
#include "codegen_c/CodeGen_C_Internal.h"
#include "ir/AllocationSize.h"

namespace Halide {
namespace Internal {

void CodeGen_C::open_scope() {
    line() << "{\n";
    indent_++;
}

void CodeGen_C::close_scope() {
    indent_--;
    line() << "}\n";
}

void CodeGen_C::stmt(const Stmt &s) {
    if (!s.defined()) {
        return;
    }
    switch (s->node_type) {
    case IRNodeType::LetStmt: {
        const LetStmt *op = s.as<LetStmt>();
        std::string v = expr(op->value);
        std::string name = fresh(op->name);
        line() << c_type(op->value.type()) << " const " << name << " = " << v << ";\n";
        push(op->name, name);
        stmt(op->body);
        pop(op->name);
        return;
    }
    case IRNodeType::AssertStmt: {
        const AssertStmt *op = s.as<AssertStmt>();
        std::string c = expr(op->condition);
        line() << "if (!(" << c << ")) {\n";
        indent_++;
        std::string code = expr(op->message);
        line() << "return (int)" << code << ";\n";
        indent_--;
        line() << "}\n";
        return;
    }
    case IRNodeType::For: return for_loop(s.as<For>());
    case IRNodeType::Store: return store(s.as<Store>());
    case IRNodeType::Allocate: return allocate(s.as<Allocate>());
    case IRNodeType::Block: {
        const Block *op = s.as<Block>();
        if (is_intrinsic_stmt(op->first, "async_fork")) {
            return async_fork(op);
        }
        stmt(op->first);
        stmt(op->rest);
        return;
    }
    case IRNodeType::IfThenElse: {
        const IfThenElse *op = s.as<IfThenElse>();
        std::string c = expr(op->condition);
        line() << "if (" << c << ") {\n";
        indent_++;
        stmt(op->then_case);
        indent_--;
        if (op->else_case.defined()) {
            line() << "} else {\n";
            indent_++;
            stmt(op->else_case);
            indent_--;
        }
        line() << "}\n";
        return;
    }
    case IRNodeType::Evaluate: {
        const Evaluate *op = s.as<Evaluate>();
        if (op->value.as<IntImm>() || op->value.as<UIntImm>() || op->value.as<Variable>()) {
            return;
        }
        expr(op->value);
        return;
    }
    case IRNodeType::ProducerConsumer: stmt(s.as<ProducerConsumer>()->body); return; // a mark only
    case IRNodeType::Atomic: {
        // Every atomic() update's stores under one lock: whole updates are
        // atomic with respect to each other.
        const Atomic *op = s.as<Atomic>();
        open_scope();
        line() << "std::lock_guard<std::recursive_mutex> " << fresh("atomic_" + op->producer_name)
               << "(h_atomic_mutex());\n";
        stmt(op->body);
        close_scope();
        return;
    }
    case IRNodeType::Provide:
        internal_error << "Provide to " << s.as<Provide>()->name << " reached codegen (storage flattening missed it)";
        return;
    case IRNodeType::Realize:
        internal_error << "Realize of " << s.as<Realize>()->name << " reached codegen (storage flattening missed it)";
        return;
    default: internal_error << "compile_to_c: not a statement node";
    }
}

void CodeGen_C::for_loop(const For *op) {
    std::string mn = expr(op->min);
    std::string ext = expr(op->extent);
    Type t = op->min.type();
    internal_assert(t.is_int() || t.is_uint()) << "For loop " << op->name << " needs an integer min";
    std::string ty = c_type(t);
    std::string var = fresh(op->name);
    if (op->for_type == ForType::Parallel) {
        // The body as a lambda over the task index (capturing everything
        // by reference: the tasks end before this frame does), called by a
        // plain function through the closure pointer.
        std::string body = fresh(op->name + "_task");
        std::string uc = fresh("task_user_context");
        line() << "auto " << body << " = [&](void *" << uc << ", int " << var << "_index) -> int {\n";
        indent_++;
        line() << ty << " const " << var << " = (" << ty << ")" << var << "_index;\n";
        line() << "(void)" << uc << ";\n";
        push("__user_context", uc);
        push(op->name, var);
        stmt(op->body);
        pop(op->name);
        pop("__user_context");
        line() << "return 0;\n";
        indent_--;
        line() << "};\n";
        std::string rc = fresh(op->name + "_result");
        line() << "const int " << rc << " = halide_do_par_for(" << sym("__user_context")
               << ", [](void *uc, int i, uint8_t *closure) -> int { return (*(decltype(" << body
               << ") *)closure)(uc, i); }, (int)" << mn << ", (int)" << ext << ", (uint8_t *)&" << body << ");\n";
        line() << "if (" << rc << " != 0) {\n";
        line() << "    return " << rc << ";\n";
        line() << "}\n";
        return;
    }
    // Serial, unrolled (already unrolled) and vectorized loops that
    // VectorizeLoops left serial.
    std::string end = fresh(op->name + "_end");
    line() << "const int64_t " << end << " = (int64_t)" << mn << " + (int64_t)" << ext << ";\n";
    std::string i = fresh(op->name + "_i");
    line() << "for (int64_t " << i << " = " << mn << "; " << i << " < " << end << "; " << i << "++) {\n";
    indent_++;
    line() << ty << " const " << var << " = (" << ty << ")" << i << ";\n";
    push(op->name, var);
    stmt(op->body);
    pop(op->name);
    indent_--;
    line() << "}\n";
}

// async_fork(n); for (v, min, extent) { task_acquires(sems...); work } x n
// (lower/AsyncProducers.cpp): each loop a serial loop task over its
// iterations, run together by halide_do_parallel_tasks, which takes one
// count of each of the task's semaphores before every iteration. Like a
// parallel loop's, each task body is a lambda over the enclosing variables.
void CodeGen_C::async_fork(const Block *op) {
    std::vector<const For *> loops = async_task_loops(op);
    std::string tasks = fresh("parallel_tasks");
    line() << "halide_parallel_task_t " << tasks << "[" << loops.size() << "];\n";
    for (size_t k = 0; k < loops.size(); k++) {
        const For *loop = loops[k];
        const std::vector<Expr> &sems = task_semaphores(loop);
        std::string mn = expr(loop->min), ext = expr(loop->extent);
        std::string ty = c_type(loop->min.type());
        std::string fn = fresh(loop->name + "_task"), uc = fresh("task_user_context"), var = fresh(loop->name);
        line() << "auto " << fn << " = [&](void *" << uc << ", int " << var << "_min, int " << var
               << "_extent) -> int {\n";
        indent_++;
        line() << "(void)" << uc << ";\n";
        line() << "for (int64_t " << var << "_i = " << var << "_min; " << var << "_i < (int64_t)" << var << "_min + "
               << var << "_extent; " << var << "_i++) {\n";
        indent_++;
        line() << ty << " const " << var << " = (" << ty << ")" << var << "_i;\n";
        push("__user_context", uc);
        push(loop->name, var);
        stmt(task_work(loop));
        pop(loop->name);
        pop("__user_context");
        indent_--;
        line() << "}\n";
        line() << "return 0;\n";
        indent_--;
        line() << "};\n";
        std::string acquires = "nullptr";
        if (!sems.empty()) {
            acquires = fresh(loop->name + "_acquires");
            line() << "halide_semaphore_acquire_t " << acquires << "[" << sems.size() << "];\n";
            for (size_t j = 0; j < sems.size(); j++) {
                std::string sem = expr(sems[j]);
                line() << acquires << "[" << j << "] = {(halide_semaphore_t *)" << sem << ", 1};\n";
            }
        }
        line() << tasks << "[" << k
               << "] = {[](void *uc, int mn, int ext, uint8_t *closure, void *) -> int { return (*(decltype(" << fn
               << ") *)closure)(uc, mn, ext); }, (uint8_t *)&" << fn << ", " << c_string(loop->name) << ", " << acquires
               << ", " << sems.size() << ", (int)" << mn << ", (int)" << ext << ", 0, true};\n";
    }
    std::string rc = fresh("parallel_tasks_result");
    line() << "const int " << rc << " = halide_do_parallel_tasks(" << sym("__user_context") << ", " << loops.size()
           << ", " << tasks << ", nullptr);\n";
    line() << "if (" << rc << " != 0) {\n";
    line() << "    return " << rc << ";\n";
    line() << "}\n";
}

void CodeGen_C::store(const Store *op) {
    std::string host = sym(op->name + ".host");
    const Call *masked = op->value.as<Call>();
    if (masked && masked->call_type == Call::Intrinsic && masked->name == "masked_store") {
        Type t = masked->args[0].type();
        std::string v = expr(masked->args[0]);
        std::string mask = expr(masked->args[1]);
        std::string idx = expr(op->index);
        if (op->index.type().is_scalar()) {
            idx = "h_broadcast<" + std::to_string(t.lanes()) + ">(" + idx + ")";
        }
        line() << "h_scatter_masked<" << c_type(t.element_of()) << ">(" << host << ", " << idx << ", " << v << ", "
               << mask << ");\n";
        return;
    }
    Type t = op->value.type();
    std::string v = expr(op->value);
    std::string et = c_type(t.element_of());
    if (t.is_scalar()) {
        std::string i = expr(op->index);
        line() << "h_store<" << et << ">(" << host << ", (int64_t)" << i << ", " << v << ");\n";
    } else if (const Ramp *r = dense_ramp(op->index)) {
        std::string base = expr(r->base);
        line() << "h_store_dense<" << et << ", " << t.lanes() << ">(" << host << ", (int64_t)" << base << ", " << v
               << ");\n";
    } else {
        std::string i = expr(op->index);
        line() << "h_scatter<" << et << ">(" << host << ", " << i << ", " << v << ");\n";
    }
}

void CodeGen_C::allocate(const Allocate *op) {
    open_scope();
    std::string p = fresh(op->name + ".host");
    std::string uc = sym("__user_context");
    if (op->new_expr.defined()) {
        // Memory someone else allocated (the memoization cache), given back
        // through free_function.
        std::string v = expr(op->new_expr);
        line() << "void *const " << p << " = " << v << ";\n";
        if (op->free_function.compare(0, 7, "halide_") != 0 && declared_.insert(op->free_function).second) {
            decls_ << "extern \"C\" void " << op->free_function << "(void *, void *);\n";
        }
        line() << "h_free_at_exit " << p << "_free{" << uc << ", " << p << ", ::" << op->free_function << "};\n";
    } else {
        bool constant = false;
        int64_t count = constant_element_count(op, &constant);
        int64_t bytes = count * op->type.bytes();
        bool on_stack = (op->memory_type == MemoryType::Stack || op->memory_type == MemoryType::Register) && constant &&
                        bytes <= 64 * 1024;
        if (on_stack) {
            line() << "alignas(32) uint8_t " << p << "_bytes[" << std::max<int64_t>(bytes, 1) << "];\n";
            line() << "void *const " << p << " = " << p << "_bytes;\n";
        } else {
            std::string size = fresh(op->name + ".bytes");
            line() << "int64_t " << size << " = " << op->type.bytes() << ";\n";
            for (const Expr &e : op->extents) {
                std::string x = expr(e);
                line() << size << " *= (int64_t)" << x << ";\n";
            }
            // A zero-byte request may legally return NULL; ask for one byte instead.
            line() << "void *const " << p << " = halide_malloc(" << uc << ", " << size << " == 0 ? 1 : (size_t)" << size
                   << ");\n";
            line() << "if (!" << p << ") {\n";
            line() << "    return halide_error_out_of_memory(" << uc << ");\n";
            line() << "}\n";
            line() << "h_free_at_exit " << p << "_free{" << uc << ", " << p << ", halide_free};\n";
        }
    }
    push(op->name + ".host", p);
    stmt(op->body);
    pop(op->name + ".host");
    close_scope();
}

} // namespace Internal
} // namespace Halide
