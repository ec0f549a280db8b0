// JIT compilation with LLVM ORC (LLJIT) for the host.
#include "jit/JIT.h"

#include <mutex>

#include "Halide/Error.h"
#include "HalideRuntime.h"
#include "codegen/CodeGen_LLVM.h"
#include "codegen/LLVM_Headers.h"
#include "jit/JITHandlers.h"

namespace Halide {
namespace Internal {

namespace {

void init_llvm_once() {
    static std::once_flag flag;
    std::call_once(flag, [] {
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        llvm::InitializeNativeTargetAsmParser();
    });
}

std::string error_text(llvm::Error e) {
    return llvm::toString(std::move(e));
}

// The runtime functions generated code may call, bound to the copy of the
// runtime inside libhalide even when libhalide was loaded RTLD_LOCAL (where
// a process-wide dlsym would not see them).
llvm::orc::SymbolMap runtime_symbols(llvm::orc::LLJIT &jit) {
    llvm::orc::SymbolMap map;
    auto add = [&](const char *name, auto *fn) {
        map[jit.mangleAndIntern(name)] = llvm::orc::ExecutorSymbolDef(
            llvm::orc::ExecutorAddr::fromPtr(fn), llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
    };
#define HALIDE_RT(fn) add(#fn, &fn)
    add("halide_print", &jit_print);
    add("halide_trace", &jit_trace);
    HALIDE_RT(halide_error);
    add("halide_malloc", &jit_malloc);
    add("halide_free", &jit_free);
    add("halide_do_par_for", &jit_do_par_for);
    HALIDE_RT(halide_do_task);
    HALIDE_RT(halide_do_loop_task);
    HALIDE_RT(halide_do_parallel_tasks);
    HALIDE_RT(halide_semaphore_init);
    HALIDE_RT(halide_semaphore_release);
    HALIDE_RT(halide_semaphore_try_acquire);
    HALIDE_RT(halide_copy_to_host);
    HALIDE_RT(halide_memoization_cache_lookup);
    HALIDE_RT(halide_memoization_cache_store);
    HALIDE_RT(halide_memoization_cache_release);
    HALIDE_RT(halide_error_bounds_inference_call_failed);
    HALIDE_RT(halide_error_extern_stage_failed);
    HALIDE_RT(halide_error_explicit_bounds_too_small);
    HALIDE_RT(halide_error_bad_type);
    HALIDE_RT(halide_error_bad_dimensions);
    HALIDE_RT(halide_error_access_out_of_bounds);
    HALIDE_RT(halide_error_buffer_allocation_too_large);
    HALIDE_RT(halide_error_buffer_extents_negative);
    HALIDE_RT(halide_error_buffer_extents_too_large);
    HALIDE_RT(halide_error_constraints_make_required_region_smaller);
    HALIDE_RT(halide_error_constraint_violated);
    HALIDE_RT(halide_error_param_too_small_i64);
    HALIDE_RT(halide_error_param_too_small_u64);
    HALIDE_RT(halide_error_param_too_small_f64);
    HALIDE_RT(halide_error_param_too_large_i64);
    HALIDE_RT(halide_error_param_too_large_u64);
    HALIDE_RT(halide_error_param_too_large_f64);
    HALIDE_RT(halide_error_out_of_memory);
    HALIDE_RT(halide_error_buffer_argument_is_null);
    HALIDE_RT(halide_error_debug_to_file_failed);
    HALIDE_RT(halide_debug_to_file);
    HALIDE_RT(halide_error_unaligned_host_ptr);
    HALIDE_RT(halide_error_host_is_null);
    HALIDE_RT(halide_error_bad_fold);
    HALIDE_RT(halide_error_bad_extern_fold);
    HALIDE_RT(halide_error_fold_factor_too_small);
    HALIDE_RT(halide_error_requirement_failed);
    HALIDE_RT(halide_error_specialize_fail);
    HALIDE_RT(halide_error_no_device_interface);
    HALIDE_RT(halide_error_device_interface_no_device);
    HALIDE_RT(halide_error_host_and_device_dirty);
    HALIDE_RT(halide_error_buffer_is_null);
    HALIDE_RT(halide_error_device_dirty_with_no_device_support);
    HALIDE_RT(halide_error_storage_bound_too_small);
    HALIDE_RT(halide_error_device_crop_failed);
    HALIDE_RT(halide_error_split_factor_not_positive);
    HALIDE_RT(halide_profiler_instance_start);
    HALIDE_RT(halide_profiler_instance_end);
    HALIDE_RT(halide_profiler_set_current_func);
    HALIDE_RT(halide_profiler_incr_active_threads);
    HALIDE_RT(halide_profiler_memory_allocate);
    HALIDE_RT(halide_profiler_memory_free);
#undef HALIDE_RT
    return map;
}

} // namespace

struct JITModule::Impl {
    // Members are destroyed in reverse order, so the JIT (and its code) goes last.
    std::unique_ptr<llvm::orc::LLJIT> jit;
    ArgvFunction fn = nullptr;
    std::string ir;
    std::string triple, cpu, features;

    std::mutex assembly_mutex;
    bool assembly_done = false;
    std::string assembly_text;
};

JITModule JITModule::compile(const LoweredFunc &f, const std::map<std::string, void *> &externs) {
    init_llvm_once();
    auto impl = std::make_shared<Impl>();

    llvm::Expected<llvm::orc::JITTargetMachineBuilder> jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    internal_assert(jtmb) << "JIT: cannot detect the host target: " << error_text(jtmb.takeError());
    jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    impl->triple = jtmb->getTargetTriple().str();
    impl->cpu = jtmb->getCPU();
    impl->features = jtmb->getFeatures().getString();

    auto ctx = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> module = codegen_llvm(f, *ctx, impl->triple, impl->cpu, impl->features);
    {
        llvm::raw_string_ostream os(impl->ir);
        module->print(os, nullptr);
    }

    llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
        llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
    internal_assert(jit) << "JIT: cannot create LLJIT: " << error_text(jit.takeError());
    impl->jit = std::move(*jit);

    llvm::orc::JITDylib &jd = impl->jit->getMainJITDylib();
    if (llvm::Error e = jd.define(llvm::orc::absoluteSymbols(runtime_symbols(*impl->jit)))) {
        internal_error << "JIT: cannot define runtime symbols: " << error_text(std::move(e));
    }
    if (!externs.empty()) {
        llvm::orc::SymbolMap bound;
        for (const auto &[name, address] : externs) {
            bound[impl->jit->mangleAndIntern(name)] =
                llvm::orc::ExecutorSymbolDef(llvm::orc::ExecutorAddr::fromPtr(address),
                                             llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
        }
        if (llvm::Error e = jd.define(llvm::orc::absoluteSymbols(std::move(bound)))) {
            user_error << "set_jit_externs: cannot bind the externs: " << error_text(std::move(e));
        }
    }
    auto process =
        llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(impl->jit->getDataLayout().getGlobalPrefix());
    internal_assert(process) << "JIT: cannot search the process for symbols: " << error_text(process.takeError());
    jd.addGenerator(std::move(*process));

    if (llvm::Error e = impl->jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx)))) {
        internal_error << "JIT: cannot add the module for " << f.name << ": " << error_text(std::move(e));
    }
    llvm::Expected<llvm::orc::ExecutorAddr> addr = impl->jit->lookup(f.name + "_argv");
    internal_assert(addr) << "JIT: cannot compile " << f.name << "_argv: " << error_text(addr.takeError());
    impl->fn = addr->toPtr<ArgvFunction>();

    JITModule m;
    m.impl_ = std::move(impl);
    return m;
}

JITModule::ArgvFunction JITModule::argv_function() const {
    internal_assert(impl_) << "argv_function() of an empty JITModule";
    return impl_->fn;
}

void *JITModule::function_address(const std::string &name) const {
    internal_assert(impl_) << "function_address() of an empty JITModule";
    llvm::Expected<llvm::orc::ExecutorAddr> addr = impl_->jit->lookup(name);
    internal_assert(addr) << "JIT: no function " << name << ": " << error_text(addr.takeError());
    return addr->toPtr<void *>();
}

std::string JITModule::llvm_ir() const {
    internal_assert(impl_) << "llvm_ir() of an empty JITModule";
    return impl_->ir;
}

std::string JITModule::assembly() const {
    internal_assert(impl_) << "assembly() of an empty JITModule";
    std::lock_guard<std::mutex> lock(impl_->assembly_mutex);
    if (impl_->assembly_done) {
        return impl_->assembly_text;
    }
    // Re-read the optimized IR into a private context and run the host's
    // code generator over it, so the JIT's own module is left alone.
    llvm::LLVMContext ctx;
    llvm::SMDiagnostic diag;
    std::unique_ptr<llvm::Module> m = llvm::parseIR(llvm::MemoryBufferRef(impl_->ir, "jit_module"), diag, ctx);
    if (!m) {
        std::string msg;
        llvm::raw_string_ostream os(msg);
        diag.print("jit_module", os);
        internal_error << "assembly(): cannot re-read the module: " << os.str();
    }
    std::string err;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(impl_->triple, err);
    internal_assert(target) << "assembly(): no target for " << impl_->triple << ": " << err;
    llvm::TargetOptions options;
    std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(impl_->triple, impl_->cpu, impl_->features,
                                                                        options, llvm::Reloc::PIC_, std::nullopt,
                                                                        llvm::CodeGenOptLevel::Aggressive));
    internal_assert(tm) << "assembly(): cannot create a target machine";
    m->setDataLayout(tm->createDataLayout());

    llvm::SmallString<4096> text;
    {
        llvm::raw_svector_ostream os(text);
        llvm::legacy::PassManager pm;
        bool cannot = tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile);
        internal_assert(!cannot) << "assembly(): the target cannot emit assembly";
        pm.run(*m);
    }
    impl_->assembly_text = std::string(text.str());
    impl_->assembly_done = true;
    return impl_->assembly_text;
}

} // namespace Internal
} // namespace Halide
