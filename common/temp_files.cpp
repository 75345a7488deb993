#include "temp_files.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include "error.hpp"

namespace nisa {
namespace {

// Enough for any program's outputs (a --dump of more tensors than this still
// works; the ones past the table are only not removed on a signal).
constexpr std::size_t kSlots = 4096;
// Each slot holds a malloc'ed, NUL-terminated path or nullptr. Written before
// the file exists and cleared before the name is freed, so the handler only
// ever sees complete names.
std::atomic<char*> slots[kSlots];

extern "C" void remove_temp_files_and_reraise(int signal_number) {
  for (std::atomic<char*>& slot : slots)
    if (char* path = slot.load(std::memory_order_relaxed)) ::unlink(path);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

std::atomic<bool> handlers_wanted{false};

void install_handlers_once() {
  if (!handlers_wanted.load(std::memory_order_relaxed)) return;
  static const bool installed = [] {
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
      struct sigaction action {};
      action.sa_handler = remove_temp_files_and_reraise;
      sigemptyset(&action.sa_mask);
      struct sigaction old {};
      // A signal the caller chose to ignore (nohup, a shell's `trap '' INT`) stays ignored.
      if (sigaction(s, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      sigaction(s, &action, nullptr);
    }
    return true;
  }();
  (void)installed;
}

// The slot that holds `path`; kSlots if none.
std::size_t slot_of(const char* path) {
  for (std::size_t i = 0; i < kSlots; ++i) {
    char* p = slots[i].load(std::memory_order_relaxed);
    if (p != nullptr && std::strcmp(p, path) == 0) return i;
  }
  return kSlots;
}

// Puts `path` in a free slot (compare-and-swap: two threads never take the
// same one); kSlots if the table is full.
std::size_t claim_slot(char* path) {
  for (std::size_t i = 0; i < kSlots; ++i) {
    char* expected = nullptr;
    if (slots[i].compare_exchange_strong(expected, path, std::memory_order_relaxed)) return i;
  }
  return kSlots;
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return "";
  return path.substr(0, slash + 1);
}

std::string name_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void remove_temp_files_on_signals() { handlers_wanted.store(true, std::memory_order_relaxed); }

TempFile create_temp_file_next_to(const std::string& target, const std::string& user_path) {
  install_handlers_once();
  std::string name = folder_of(target) + "." + name_of(target) + ".nisa-XXXXXX";
  char* registered = strdup(name.c_str());
  if (registered == nullptr) throw std::bad_alloc();
  // Registered before mkstemp fills in the name: the X's match no file, so a
  // signal in between unlinks nothing; afterwards the slot names the file.
  const std::size_t slot = claim_slot(registered);
  const int fd = ::mkstemp(registered);
  if (fd < 0) {
    const int err = errno;
    if (slot < kSlots) slots[slot].store(nullptr, std::memory_order_relaxed);
    std::free(registered);
    throw InputError(file_error(user_path, std::string("cannot write: ") + std::strerror(err)));
  }
  // mkstemp makes the file 0600; outputs get the usual 0666 less the umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  TempFile t{registered, fd};
  if (slot >= kSlots) std::free(registered);
  return t;
}

void forget_temp_file(const std::string& path) {
  const std::size_t slot = slot_of(path.c_str());
  if (slot >= kSlots) return;
  char* p = slots[slot].exchange(nullptr, std::memory_order_relaxed);
  std::free(p);
}

void remove_temp_file(const std::string& path) {
  ::unlink(path.c_str());
  forget_temp_file(path);
}

}  // namespace nisa
