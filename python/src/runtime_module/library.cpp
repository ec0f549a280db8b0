// See library.h.
#include "library.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <mutex>
#include <set>
#include <stdexcept>

#include "errors.h"

namespace halide_python {
namespace {

// Walks the dynamic symbol table of a loaded library and collects the
// defined names ending in `suffix`.
std::set<std::string> exported_with_suffix(void *handle, const std::string &suffix) {
    std::set<std::string> names;
    struct link_map *map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map) {
        return names;
    }
    const ElfW(Sym) *symtab = nullptr;
    const char *strtab = nullptr;
    size_t count = 0;
    for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: symtab = reinterpret_cast<const ElfW(Sym) *>(d->d_un.d_ptr); break;
        case DT_STRTAB: strtab = reinterpret_cast<const char *>(d->d_un.d_ptr); break;
        case DT_HASH: count = reinterpret_cast<const uint32_t *>(d->d_un.d_ptr)[1]; break;
        case DT_GNU_HASH:
            if (count == 0) {
                // The GNU hash table has no symbol count; derive it from the chains.
                const auto *h = reinterpret_cast<const uint32_t *>(d->d_un.d_ptr);
                uint32_t nbuckets = h[0], symoffset = h[1], bloom_size = h[2];
                const auto *buckets = reinterpret_cast<const uint32_t *>(reinterpret_cast<const uint8_t *>(h + 4) +
                                                                         bloom_size * sizeof(ElfW(Addr)));
                const uint32_t *chains = buckets + nbuckets;
                uint32_t last = 0;
                for (uint32_t b = 0; b < nbuckets; b++) {
                    last = buckets[b] > last ? buckets[b] : last;
                }
                if (last >= symoffset) {
                    while (!(chains[last - symoffset] & 1u)) {
                        last++;
                    }
                    count = last + 1;
                } else {
                    count = symoffset;
                }
            }
            break;
        default: break;
        }
    }
    if (!symtab || !strtab) {
        return names;
    }
    for (size_t i = 0; i < count; i++) {
        const ElfW(Sym) &s = symtab[i];
        if (s.st_shndx == SHN_UNDEF || ELF64_ST_TYPE(s.st_info) != STT_FUNC) {
            continue;
        }
        std::string name = strtab + s.st_name;
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
            names.insert(name.substr(0, name.size() - suffix.size()));
        }
    }
    return names;
}

} // namespace

std::shared_ptr<Library> Library::open(const std::string &path) {
    dlerror();
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        throw std::runtime_error("cannot load kernel library '" + path + "': " + (why ? why : "unknown error"));
    }
    // A library with an embedded runtime would abort on errors that reach
    // its own copy of halide_error; route those to our capture as well.
    using SetHandler = halide_error_handler_t (*)(halide_error_handler_t);
    auto set_handler = reinterpret_cast<SetHandler>(dlsym(handle, "halide_set_error_handler"));
    if (set_handler && set_handler != &halide_set_error_handler) {
        set_handler(halide_python_capture_error);
    }
    return std::shared_ptr<Library>(new Library(handle, path));
}

void *Library::symbol(const std::string &name) const {
    // dlsym on the handle searches this library first, then its dependencies.
    return dlsym(handle_, name.c_str());
}

std::vector<std::string> Library::kernel_names() const {
    std::set<std::string> argv = exported_with_suffix(handle_, "_argv");
    std::set<std::string> metadata = exported_with_suffix(handle_, "_metadata");
    std::vector<std::string> names;
    for (const auto &n : argv) {
        if (metadata.count(n)) {
            names.push_back(n);
        }
    }
    return names;
}

} // namespace halide_python
