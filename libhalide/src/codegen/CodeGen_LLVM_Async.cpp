// Async producers (lower/AsyncProducers.cpp): a fork of task loops run by
// halide_do_parallel_tasks, and the semaphores between them.
//
//   async_fork(n); for (v, min, extent) { task_acquires(s...); body } x n
//
// Each task loop becomes a loop task `int f(uc, min, extent, closure,
// task_parent)` that runs iterations [min, min + extent) of its body; its
// halide_parallel_task_t lists the semaphores named by task_acquires (one
// count each, taken before every iteration) and is serial, so the runtime
// runs its iterations in order. The array of tasks and of semaphore
// requests lives in the caller's frame.
#include "codegen/CodeGen_LLVM_Internal.h"

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "codegen/BackendCommon.h"

namespace Halide {
namespace Internal {

bool CodeGen_LLVM::is_async_fork(const Block *op) {
    return is_intrinsic_stmt(op->first, "async_fork");
}

llvm::Value *CodeGen_LLVM::make_semaphore(const Call *op) {
    // halide_semaphore_t: 16 opaque bytes, 8-aligned, in the frame.
    llvm::Function *fn = current_fn();
    llvm::IRBuilder<> entry_b(&fn->getEntryBlock(), fn->getEntryBlock().begin());
    llvm::Type *sem_ty = llvm::ArrayType::get(i64_, 2);
    llvm::AllocaInst *sem = entry_b.CreateAlloca(sem_ty, nullptr, "semaphore");
    sem->setAlignment(llvm::Align(8));
    llvm::FunctionCallee init = runtime_fn("halide_semaphore_init", i32_, {ptr_, i32_});
    b_.CreateCall(init, {sem, to_i32(codegen(op->args[0]), op->args[0].type())});
    return sem;
}

void CodeGen_LLVM::async_fork(const Block *op) {
    std::vector<const For *> loops = async_task_loops(op);

    // halide_parallel_task_t and halide_semaphore_acquire_t, laid out by the
    // target (56 and 16 bytes with 64-bit pointers, 36 and 8 with 32-bit).
    llvm::StructType *task_ty = llvm::StructType::get(ctx_, {ptr_, ptr_, ptr_, ptr_, i32_, i32_, i32_, i32_, i8_});
    llvm::StructType *acquire_ty = llvm::StructType::get(ctx_, {ptr_, i32_});
    llvm::Function *caller = current_fn();
    llvm::IRBuilder<> entry_b(&caller->getEntryBlock(), caller->getEntryBlock().begin());
    llvm::Value *tasks = entry_b.CreateAlloca(llvm::ArrayType::get(task_ty, loops.size()), nullptr, "parallel_tasks");

    llvm::FunctionType *fn_ty = llvm::FunctionType::get(i32_, {ptr_, i32_, i32_, ptr_, ptr_}, false);
    for (size_t k = 0; k < loops.size(); k++) {
        const For *loop = loops[k];
        const std::vector<Expr> &sems = task_semaphores(loop);
        const Stmt &work = task_work(loop);

        llvm::Value *mn = codegen(loop->min), *ext = codegen(loop->extent);
        llvm::Type *var_ty = mn->getType();
        Closure closure = make_closure(work, loop->name, loop->name);
        std::string name = func_name_ + "_task_" + sanitize(loop->name) + "_" + std::to_string(task_counter_++);
        llvm::Function *fn = llvm::Function::Create(fn_ty, llvm::Function::InternalLinkage, name, &module_);
        fn->getArg(0)->setName(kUserContext);
        outline(fn, closure, fn->getArg(3), fn->getArg(0), [&] {
            // for (v = min; v < min + extent; v++) work
            llvm::Value *first = b_.CreateIntCast(fn->getArg(1), var_ty, true);
            llvm::Value *end = b_.CreateAdd(first, b_.CreateIntCast(fn->getArg(2), var_ty, true));
            llvm::BasicBlock *pre = b_.GetInsertBlock();
            llvm::BasicBlock *loop_bb = new_block(loop->name + "_task_loop");
            llvm::BasicBlock *after = new_block(loop->name + "_task_end");
            b_.CreateCondBr(b_.CreateICmpSLT(first, end), loop_bb, after);
            b_.SetInsertPoint(loop_bb);
            llvm::PHINode *i = b_.CreatePHI(var_ty, 2, loop->name);
            i->addIncoming(first, pre);
            push(loop->name, i);
            codegen(work);
            pop(loop->name);
            llvm::Value *next = b_.CreateAdd(i, int_const(var_ty, 1));
            i->addIncoming(next, b_.GetInsertBlock());
            b_.CreateCondBr(b_.CreateICmpSLT(next, end), loop_bb, after);
            b_.SetInsertPoint(after);
            b_.CreateRet(llvm::ConstantInt::get(i32_, 0));
        });

        llvm::Value *acquires = llvm::ConstantPointerNull::get(ptr_);
        if (!sems.empty()) {
            acquires = entry_b.CreateAlloca(llvm::ArrayType::get(acquire_ty, sems.size()), nullptr, "acquires");
            for (size_t j = 0; j < sems.size(); j++) {
                llvm::Value *slot =
                    b_.CreateConstGEP2_32(llvm::ArrayType::get(acquire_ty, sems.size()), acquires, 0, (unsigned)j);
                b_.CreateStore(codegen(sems[j]), b_.CreateStructGEP(acquire_ty, slot, 0));
                b_.CreateStore(llvm::ConstantInt::get(i32_, 1), b_.CreateStructGEP(acquire_ty, slot, 1));
            }
        }
        llvm::Value *t = b_.CreateConstGEP2_32(llvm::ArrayType::get(task_ty, loops.size()), tasks, 0, (unsigned)k);
        llvm::Value *fields[] = {fn,
                                 closure.ptr,
                                 string_constant(loop->name),
                                 acquires,
                                 llvm::ConstantInt::get(i32_, sems.size()),
                                 b_.CreateIntCast(mn, i32_, true),
                                 b_.CreateIntCast(ext, i32_, true),
                                 llvm::ConstantInt::get(i32_, 0),
                                 llvm::ConstantInt::get(i8_, 1)};
        for (unsigned f = 0; f < 9; f++) {
            b_.CreateStore(fields[f], b_.CreateStructGEP(task_ty, t, f));
        }
    }
    llvm::FunctionCallee run = runtime_fn("halide_do_parallel_tasks", i32_, {ptr_, i32_, ptr_, ptr_});
    llvm::Value *rc = b_.CreateCall(run, {sym(kUserContext), llvm::ConstantInt::get(i32_, loops.size()), tasks,
                                          llvm::ConstantPointerNull::get(ptr_)});
    return_if_failed(rc, "parallel_tasks");
}

} // namespace Internal
} // namespace Halide
