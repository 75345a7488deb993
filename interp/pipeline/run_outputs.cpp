#include "run_outputs.hpp"

#include <algorithm>
#include <span>
#include <string_view>

#include "lanes.hpp"
#include "npy.hpp"
#include "numbers.hpp"
#include "output_files.hpp"
#include "run_inputs.hpp"

namespace nisa {
namespace {

constexpr const char* kStateFiles[] = {"sbuf", "psum", "vector_accumulator", "scalar_accumulator"};

// `--dump-state` file `name` of core `core` (LANGUAGE.md 2.7): core 0's as
// for one core, core k's prefixed `corek_`.
std::string state_path(const std::string& dir, int core, const char* name) {
  return dir + "/" + (core == 0 ? std::string() : "core" + std::to_string(core) + "_") + name + ".npy";
}

// A file to write: `bytes`, then each of `tail` (data written straight from
// the machine: a dumped tensor whose storage is its .npy data, the partitions
// of SBUF/PSUM), never copied first.
struct PendingFile {
  std::string path;
  std::vector<uint8_t> bytes;
  std::vector<std::span<const uint8_t>> tail = {};
};

std::vector<PendingFile> dump_files(const Program& program, const Machine& machine, const std::string& dir,
                                    MinifloatForm form) {
  std::vector<PendingFile> files;
  for (std::size_t t = 0; t < program.tensors.size(); ++t) {
    const TensorDecl& d = program.tensors[t];
    if (!is_output_tensor(d)) continue;
    const std::span<const uint8_t> storage = machine.hbm[t].bytes();
    if (travels_as_f32(d.dtype, form)) {  // widened to float32 on the way out
      files.push_back({dir + "/" + d.name + ".npy", encode_tensor_npy(d.dtype, d.shape, storage, form)});
    } else {
      files.push_back({dir + "/" + d.name + ".npy", encode_npy_header(npy_type_of(d.dtype, form), d.shape), {storage}});
    }
  }
  return files;
}

// SBUF or PSUM as a u8 [128, arch bytes per partition] .npy (LANGUAGE.md 1),
// written from the machine's compact layout: each partition's used bytes,
// then zeros up to the arch's partition size (never written by a program).
PendingFile memory_state_file(const Machine& machine, Memory memory, const std::string& path) {
  const bool sbuf = memory == Memory::sbuf;
  const auto used = static_cast<std::size_t>(sbuf ? machine.sbuf_partition_bytes : machine.psum_partition_bytes);
  const int64_t arch_row = sbuf ? machine.arch_sbuf_partition_bytes : machine.arch_psum_partition_bytes;
  const uint8_t* data = sbuf ? machine.sbuf.data() : machine.psum.data();
  static const std::vector<uint8_t> zeros(64 << 10, 0);
  const std::size_t padding = static_cast<std::size_t>(arch_row) - used;
  PendingFile file{path, encode_npy_header(npy_type_of(Dtype::u8), {kLanes, arch_row})};
  for (std::size_t p = 0; p < kLanes; ++p) {
    file.tail.emplace_back(data + p * used, used);
    for (std::size_t done = 0; done < padding; done += zeros.size())
      file.tail.emplace_back(zeros.data(), std::min(zeros.size(), padding - done));
  }
  return file;
}

std::vector<PendingFile> state_files(const Machine& machine, const std::string& dir) {
  auto bytes_of = [](const auto& array) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(array.data()), array.size() * sizeof(array[0]));
  };
  std::vector<PendingFile> files;
  for (int core = 0; core <= static_cast<int>(machine.other_cores.size()); ++core) {
    const Machine& m = core == 0 ? machine : machine.other_cores[static_cast<std::size_t>(core - 1)];
    files.push_back(memory_state_file(m, Memory::sbuf, state_path(dir, core, kStateFiles[0])));
    files.push_back(memory_state_file(m, Memory::psum, state_path(dir, core, kStateFiles[1])));
    files.push_back({state_path(dir, core, kStateFiles[2]), encode_tensor_npy(Dtype::f32, {kLanes}, bytes_of(m.vector_accumulator))});
    files.push_back({state_path(dir, core, kStateFiles[3]), encode_tensor_npy(Dtype::f32, {kLanes}, bytes_of(m.scalar_accumulator))});
  }
  return files;
}

void add_read_files(const OutputRequest& request, OutputSet& outputs) {
  for (const std::string& path : request.read_files) outputs.add_input(path);
}

std::string_view text_of(std::span<const uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

void check_outputs_before_run(const Program& program, const OutputRequest& request) {
  OutputSet planned;
  add_read_files(request, planned);
  if (!request.dump_dir.empty())
    for (const TensorDecl& d : program.tensors)
      if (is_output_tensor(d)) planned.add_output(request.dump_dir + "/" + d.name + ".npy", std::string_view(), "--dump");
  if (!request.dump_state_dir.empty())
    for (int core = 0; core < core_count(program); ++core)
      for (const char* name : kStateFiles) planned.add_output(state_path(request.dump_state_dir, core, name), std::string_view(), "--dump-state");
  if (!request.trace_file.empty()) planned.add_output(request.trace_file, std::string_view(), request.trace_option);
  if (!request.print_file.empty()) planned.add_output(request.print_file, std::string_view(), request.print_option);
  planned.check();
}

void write_run_outputs(const Program& program, const Machine& machine, const OutputRequest& request,
                       std::string_view trace, std::string_view printed) {
  OutputSet outputs;
  add_read_files(request, outputs);
  std::vector<PendingFile> files;
  if (!request.dump_dir.empty()) files = dump_files(program, machine, request.dump_dir, request.dump_dtypes);
  const std::size_t dump_count = files.size();
  if (!request.dump_state_dir.empty())
    for (PendingFile& f : state_files(machine, request.dump_state_dir)) files.push_back(std::move(f));
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::vector<std::string_view> parts{text_of(files[i].bytes)};
    for (std::span<const uint8_t> part : files[i].tail) parts.push_back(text_of(part));
    outputs.add_output(files[i].path, std::move(parts), i < dump_count ? "--dump" : "--dump-state");
  }
  if (!request.trace_file.empty()) outputs.add_output(request.trace_file, trace, request.trace_option);
  if (!request.print_file.empty()) outputs.add_output(request.print_file, printed, request.print_option);
  outputs.check();
  if (!request.dump_dir.empty()) create_folder(request.dump_dir);
  if (!request.dump_state_dir.empty()) create_folder(request.dump_state_dir);
  outputs.commit();
}

}  // namespace nisa
