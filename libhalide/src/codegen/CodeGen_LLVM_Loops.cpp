// Loops: serial loops (with a request to LLVM's loop vectorizer for
// vectorized loops VectorizeLoops left serial) and parallel loops, whose
// bodies are outlined into task functions run by halide_do_par_for. The
// variables a task reads are passed in a closure struct built from the
// symbols its body uses.
#include "codegen/CodeGen_LLVM_Internal.h"

#include <set>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IRVisitor.h"

namespace Halide {
namespace Internal {

namespace {

// Every symbol name a statement refers to: Variables, and the `<name>.host`
// base pointer of every Load and Store. Names bound inside the statement are
// included too; the caller keeps only those bound outside.
class SymbolUses : public IRVisitor {
public:
    std::set<std::string> names;

    using IRVisitor::visit;
    void visit(const Variable *op) override { names.insert(op->name); }
    void visit(const Load *op) override {
        names.insert(op->name + ".host");
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        names.insert(op->name + ".host");
        IRVisitor::visit(op);
    }
};

} // namespace

void CodeGen_LLVM::for_loop(const For *op) {
    llvm::Value *mn = codegen(op->min);
    llvm::Value *ext = codegen(op->extent);
    internal_assert(mn->getType()->isIntegerTy() && ext->getType() == mn->getType())
        << "For loop " << op->name << " needs integer min and extent of one type";
    if (op->for_type == ForType::Parallel) {
        parallel_loop(op, mn, ext);
        return;
    }
    // Serial loops, and Vectorized ones left serial by VectorizeLoops.
    llvm::Type *ty = mn->getType();
    llvm::BasicBlock *pre = b_.GetInsertBlock();
    llvm::BasicBlock *loop = new_block(op->name + "_loop");
    llvm::BasicBlock *after = new_block(op->name + "_end");
    llvm::Value *end = b_.CreateAdd(mn, ext, op->name + ".loop_end");
    b_.CreateCondBr(b_.CreateICmpSGT(ext, int_const(ty, 0)), loop, after);
    b_.SetInsertPoint(loop);
    llvm::PHINode *i = b_.CreatePHI(ty, 2, op->name);
    i->addIncoming(mn, pre);
    push(op->name, i);
    codegen(op->body);
    pop(op->name);
    llvm::Value *next = b_.CreateNSWAdd(i, int_const(ty, 1));
    i->addIncoming(next, b_.GetInsertBlock());
    llvm::BranchInst *back_edge = b_.CreateCondBr(b_.CreateICmpNE(next, end), loop, after);
    if (op->for_type == ForType::Vectorized) {
        request_vectorization(back_edge, op);
    }
    b_.SetInsertPoint(after);
}

void CodeGen_LLVM::request_vectorization(llvm::BranchInst *back_edge, const For *op) {
    llvm::SmallVector<llvm::Metadata *, 4> md;
    md.push_back(nullptr); // self reference, set below
    md.push_back(llvm::MDNode::get(
        ctx_, {llvm::MDString::get(ctx_, "llvm.loop.vectorize.enable"), llvm::ConstantAsMetadata::get(b_.getTrue())}));
    if (const IntImm *width = op->extent.as<IntImm>()) {
        md.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.vectorize.width"),
                                              llvm::ConstantAsMetadata::get(b_.getInt32((uint32_t)width->value))}));
    }
    llvm::MDNode *loop_id = llvm::MDNode::getDistinct(ctx_, md);
    loop_id->replaceOperandWith(0, loop_id);
    back_edge->setMetadata(llvm::LLVMContext::MD_loop, loop_id);
}

CodeGen_LLVM::Closure CodeGen_LLVM::make_closure(const Stmt &body, const std::string &bound, const std::string &name) {
    SymbolUses uses;
    uses.include(body);
    Closure c;
    for (const std::string &n : uses.names) {
        if (n != bound && n != kUserContext && has_sym(n)) {
            c.captured.emplace_back(n, sym(n));
        }
    }
    std::vector<llvm::Type *> field_types;
    for (const auto &v : c.captured) {
        field_types.push_back(v.second->getType());
    }
    c.type = llvm::StructType::get(ctx_, field_types);
    // The closure lives in the caller's frame (the tasks end before it returns).
    llvm::Function *caller = current_fn();
    llvm::IRBuilder<> entry_b(&caller->getEntryBlock(), caller->getEntryBlock().begin());
    c.ptr = entry_b.CreateAlloca(c.type, nullptr, name + ".closure");
    for (size_t i = 0; i < c.captured.size(); i++) {
        b_.CreateStore(c.captured[i].second, b_.CreateStructGEP(c.type, c.ptr, (unsigned)i));
    }
    return c;
}

void CodeGen_LLVM::outline(llvm::Function *fn, const Closure &c, llvm::Value *closure_arg, llvm::Value *uc,
                           const std::function<void()> &emit) {
    // Generate the task with a fresh symbol table and allocation list.
    llvm::IRBuilderBase::InsertPoint saved_ip = b_.saveIP();
    std::map<std::string, std::vector<llvm::Value *>> saved_symbols;
    saved_symbols.swap(symbols_);
    std::map<std::string, std::vector<Expr>> saved_index_lets; // their values' names are not captured
    saved_index_lets.swap(index_lets_);
    std::vector<std::pair<llvm::Value *, std::string>> saved_allocations;
    saved_allocations.swap(live_allocations_);

    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn));
    for (size_t i = 0; i < c.captured.size(); i++) {
        llvm::Value *addr = b_.CreateStructGEP(c.type, closure_arg, (unsigned)i);
        push(c.captured[i].first, b_.CreateLoad(c.type->getElementType((unsigned)i), addr, c.captured[i].first));
    }
    push(kUserContext, uc);
    emit();

    symbols_.swap(saved_symbols);
    index_lets_.swap(saved_index_lets);
    live_allocations_.swap(saved_allocations);
    b_.restoreIP(saved_ip);
}

void CodeGen_LLVM::parallel_loop(const For *op, llvm::Value *mn, llvm::Value *ext) {
    Closure closure = make_closure(op->body, op->name, op->name);
    llvm::FunctionType *task_ty = llvm::FunctionType::get(i32_, {ptr_, i32_, ptr_}, false);
    std::string task_name = func_name_ + "_par_for_" + sanitize(op->name) + "_" + std::to_string(task_counter_++);
    llvm::Function *task = llvm::Function::Create(task_ty, llvm::Function::InternalLinkage, task_name, &module_);
    task->getArg(0)->setName(kUserContext);
    task->getArg(1)->setName(op->name);
    task->getArg(2)->setName("closure");
    outline(task, closure, task->getArg(2), task->getArg(0), [&] {
        push(op->name, b_.CreateIntCast(task->getArg(1), mn->getType(), true));
        codegen(op->body);
        b_.CreateRet(llvm::ConstantInt::get(i32_, 0));
    });

    llvm::FunctionCallee do_par_for = runtime_fn("halide_do_par_for", i32_, {ptr_, ptr_, i32_, i32_, ptr_});
    llvm::Value *rc = b_.CreateCall(do_par_for, {sym(kUserContext), task, b_.CreateIntCast(mn, i32_, true),
                                                 b_.CreateIntCast(ext, i32_, true), closure.ptr});
    return_if_failed(rc, op->name + "_par_for");
}

void CodeGen_LLVM::return_if_failed(llvm::Value *rc, const std::string &name) {
    llvm::BasicBlock *fail = new_block(name + "_failed");
    llvm::BasicBlock *ok = new_block(name + "_done");
    branch_likely(b_.CreateICmpEQ(rc, llvm::ConstantInt::get(i32_, 0)), ok, fail);
    b_.SetInsertPoint(fail);
    emit_return(rc);
    b_.SetInsertPoint(ok);
}
} // namespace Internal
} // namespace Halide
