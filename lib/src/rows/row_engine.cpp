#include "eom/rows/row_engine.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>
#include <iterator>
#include <unordered_set>
#include <utility>

#include <eom/core/errors.hpp>
#include <eom/io/columns.hpp>

#include <nlohmann/json.hpp>

#include <eom/rows/row_input.hpp>

namespace eom::rows {

TimeColumns bind_time_columns(const Header& header, const TimeOptions& time,
                              const std::string& file, bool required) {
  const TimeColumns found = find_time_columns(header, time.column);
  if (found.stamp >= 0 || (!required && time.column == "t")) return found;
  const std::string& name = time.column;
  throw InputError(file, 1, 0,
                   (name == "t" ? Phrase("missing the time column t")
                                : Setting::time_column + (": no column " + name + " (nor " + name +
                                                          ".sec and " + name + ".nanosec)")) +
                       did_you_mean(header.names, name));
}

namespace {

// ---------------------------------------------------------------------------------------------
// Output rows

// Passed-through columns as the input wrote them (the time as the output's t), then the task's,
// checked finite (a non-finite result names the row that caused it, not just the output).
class RowSink {
 public:
  RowSink(RowTask& task, const Binding& b, TableWriter& out, const std::string& file, bool flush)
      : task_(task),
        b_(b),
        out_(out),
        file_(file),
        flush_(flush),
        result_(out.header().size()),
        fields_(out.header().size()) {}

  void write(const Sample& s) {
    compute(s);
    if (task_.amends_first_row && rows_ == 0 && !held_) {
      hold();
      return;
    }
    if (held_) {
      task_.amend_first_row(held_result_.data() + b_.keep.size());
      emit(held_result_.data(), held_fields_.data());
      held_ = false;
    }
    emit(result_.data(), fields_.data());
  }

  /// After the last row: a held first row that no second one followed.
  void finish() {
    if (held_) emit(held_result_.data(), held_fields_.data());
    held_ = false;
  }

  long rows() const { return rows_; }

 private:
  void compute(const Sample& s) {
    const size_t k = b_.keep.size();
    for (size_t c = 0; c < k; ++c) {
      fields_[c] = s.kept[c];
      // the number read, which the writer prints first; the time is written from it when its
      // field is none (t counted from the first row)
      result_[c] = b_.keep[c] < 0 ? s.t : s.row[b_.keep[c]];
    }
    try {
      task_.compute(s, result_.data() + k);
    } catch (const NumericalError& e) {
      // the state of this row has no answer (a singular mass matrix): name the row
      throw InputError(file_, s.line, 0, e.what());
    }
    for (size_t c = k; c < result_.size(); ++c) {
      if (!std::isfinite(result_[c])) fail(s, c);
    }
  }

  void emit(const double* values, const Field* fields) {
    out_.write_row(values, fields);
    if (flush_) out_.flush();
    ++rows_;
  }

  // the first row kept until the second is computed: its passed-through texts copied, as the
  // sample they point into is reused
  void hold() {
    held_result_ = result_;
    held_text_.resize(fields_.size());
    held_fields_.resize(fields_.size());
    for (size_t c = 0; c < fields_.size(); ++c) {
      held_text_[c] = fields_[c].text;
      held_fields_[c] = {fields_[c].kind, held_text_[c]};
    }
    held_ = true;
  }

  [[noreturn]] void fail(const Sample& s, size_t c) const {
    // the inputs are finite (the reader makes sure): the numbers of this row overflow
    std::string largest;
    double magnitude = -1;
    for (int i = 0; i < static_cast<int>(s.row.size()); ++i) {
      if (std::abs(s.row[i]) > magnitude) {
        magnitude = std::abs(s.row[i]);
        largest = number(s.row[i]);
      }
    }
    throw InputError(file_, s.line, 0,
                     out_.header().names[c] + " came out as " + number(result_[c]) +
                         ": the numbers of this row overflow (its largest input is " + largest +
                         ")");
  }

  RowTask& task_;
  const Binding& b_;
  TableWriter& out_;
  const std::string& file_;
  const bool flush_;
  std::vector<double> result_;
  std::vector<Field> fields_;  // the passed-through columns'; none for the task's
  long rows_ = 0;
  bool held_ = false;
  std::vector<double> held_result_;
  std::vector<std::string> held_text_;
  std::vector<Field> held_fields_;
};

// Reading overlapped with computing and writing: a reader thread fills blocks of samples that
// this thread computes and writes in order (consume(sample): RowSink::write, or a task's
// compute() where nothing is written). Blocks cycle through a fixed pool: no allocation once the
// first rows have sized them.
template <class Consume>
void run_pipelined(const Model& model, int order, const TableReader& in, SampleSource& source,
                   Consume&& consume, Progress& progress) {
  constexpr int kBlockRows = 512, kBlocks = 4;
  struct Block {
    std::vector<Sample> samples;
    int count = 0;
    bool last = false;
  };
  std::vector<Block> blocks(kBlocks);
  for (Block& b : blocks) b.samples.assign(kBlockRows, Sample(model, order));
  std::mutex mutex;
  std::condition_variable changed;
  int filled = 0, consumed = 0;  // blocks handed over and given back, counting up
  bool cancelled = false;
  std::exception_ptr failure;

  std::thread producer([&] {
    try {
      for (int n = 0;; ++n) {
        {
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] { return n - consumed < kBlocks || cancelled; });
          if (cancelled) return;
        }
        Block& b = blocks[n % kBlocks];
        b.count = 0;
        while (b.count < kBlockRows && source.next(b.samples[b.count])) ++b.count;
        b.last = b.count < kBlockRows;
        progress.done_to(in.offset());
        std::lock_guard<std::mutex> lock(mutex);
        ++filled;
        changed.notify_all();
        if (b.last) return;
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      failure = std::current_exception();
      changed.notify_all();
    }
  });

  auto stop = [&] {
    {
      std::lock_guard<std::mutex> lock(mutex);
      cancelled = true;
    }
    changed.notify_all();
    producer.join();
  };
  try {
    for (int n = 0;; ++n) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return filled > n || failure; });
        if (filled <= n) std::rethrow_exception(failure);
      }
      const Block& b = blocks[n % kBlocks];
      for (int i = 0; i < b.count; ++i) consume(b.samples[i]);
      progress.add_rows(b.count);
      std::lock_guard<std::mutex> lock(mutex);
      ++consumed;
      changed.notify_all();
      if (b.last) break;
    }
  } catch (...) {
    stop();
    throw;
  }
  stop();
}

// Only the columns eom reads must be numbers: the time, q and its derivatives, the task's
// inputs. What is passed through may hold anything (it is copied as the input wrote it).
void read_used_columns(TableReader& in, const Binding& b, const RowTask& task) {
  const int n = in.header().size();
  std::vector<bool> used(n, false);
  for (const auto& order : b.column) {
    for (int c : order) {
      if (c >= 0) used[c] = true;
    }
  }
  // a contact.<frame> input is a contact's activity: 0 or 1 (rows/contacts.hpp)
  std::vector<bool> flags(n, false);
  std::vector<std::string> why;
  for (int c : task.inputs) {
    used[c] = true;
    if (contact_activity_frame(in.header().names[c]).empty()) continue;
    flags[c] = true;
    why.resize(n);
    why[c] = kContactActivityMeaning;
  }
  if (b.time.stamp >= 0) used[b.time.stamp] = true;
  if (b.time.nanosec >= 0) used[b.time.nanosec] = true;
  in.read_columns(std::move(used), std::move(why), std::move(flags));
}

bool stdin_is_stream() {
  struct stat s;
  return fstat(0, &s) == 0 && !S_ISREG(s.st_mode);
}

// One input table to one output; returns the exit code and leaves its messages in notes and,
// when `summary` is given, the table's summary object there (notes.log then holds its messages).
// The output, when the table succeeded, is left finished in `finished`, for commit_results.
int run_table(const RowOptions& opt, const Model& model, const RowCommand& command,
              const std::string& in_path, const std::string& out_path, bool pipelined,
              const Notes& notes, Progress& progress, nlohmann::json* summary,
              std::unique_ptr<TableWriter>& finished) {
  auto in = open_input(
      InputOptions{in_path, opt.from, opt.separator},
      [&](const std::string& m) { notes.warning(m); }, notes.names);
  const Binding b = bind(model, in->header(), in->name(), opt, command, notes);
  const std::unique_ptr<RowTask> task = command.make_task(in->header(), in->name(), notes);

  Header header;
  // the task's names are moved, not copied: they may be 10^7
  header.names.reserve(b.keep_names.size() + task->columns.size());
  header.names = b.keep_names;
  std::move(task->columns.begin(), task->columns.end(), std::back_inserter(header.names));
  std::vector<std::string>().swap(task->columns);
  {
    // a hash set, freed before the rows: an output may have 10^7 columns (the Christoffel
    // symbols of 200 joints)
    std::unordered_set<std::string_view> written;
    written.reserve(header.names.size());
    for (const std::string& name : header.names) {
      if (!written.insert(name).second) {
        throw InputError("output column " + name +
                         " would appear twice (rename a kept column with " + Setting::keep +
                         " NAME:NEW_NAME)");
      }
    }
  }
  read_used_columns(*in, b, *task);
  OutputOptions output = opt.output;
  output.path = out_path;
  auto out = open_output(output, std::move(header));
  // rows of an endless stream go out as soon as they are computed
  const bool streaming = in_path == "-" && stdin_is_stream();

  TableSamples samples(model, *in, b, opt, notes, command.order, task->inputs);
  SampleSource* source = &samples.source();
  RowSink sink(*task, b, *out, in->name(), streaming);
  if (pipelined && !streaming) {
    run_pipelined(
        model, command.order, *in, *source, [&](const Sample& s) { sink.write(s); }, progress);
  } else {
    Sample s(model, command.order);
    while (source->next(s)) {
      sink.write(s);
      if ((sink.rows() & 1023) == 0) {
        progress.done_to(in->offset());
        progress.add_rows(1024);
      }
    }
  }
  sink.finish();
  samples.report();
  const int rc = task->finish(notes);
  if (rc == kExitOk) {
    out->finish();
    finished = std::move(out);
  } else if (out_path != "-") {
    // like a failed Make recipe: no output file, so the next run does not think it up to date
    notes.error(out_path + " not written: the run failed (see above)");
  }
  if (summary) {
    *summary =
        summary_object(command.name, in_path, out_path, rc == kExitOk, sink.rows(), rc, *notes.log);
    (*summary)["quaternions_renormalised"] = samples.renormalised();
    (*summary)["derivation"] = samples.derivation();
    task->summarize(*summary);
  }
  return rc;
}

}  // namespace

namespace {

// The rows of a time table as they are read: the time of each, and the columns kept (t and the
// prefixes read), so that the memory is theirs however wide the table (a log's hundreds of
// columns).
class TimeTableRows {
 public:
  TimeTableRows(const std::string& path, const std::vector<std::string>& reads,
                const TimeOptions& time, const TableTime& clock, Header& header,
                std::vector<int>& kept, const std::vector<std::string>& flags = {})
      : path_(path), reader_(TableReader::open(path, format_for(path, std::nullopt))) {
    const Header& full = reader_->header();
    const TimeColumns time_columns = bind_time_columns(full, time, path, true);
    t_col_ = time_columns.stamp;
    std::vector<bool> used(full.names.size()), flag(full.names.size());
    std::vector<std::string> why(full.names.size());
    for (size_t c = 0; c < used.size(); ++c) {
      const std::string& name = full.names[c];
      used[c] = static_cast<int>(c) == t_col_ || static_cast<int>(c) == time_columns.nanosec ||
                std::any_of(reads.begin(), reads.end(), [&](const std::string& prefix) {
                  return name.size() > prefix.size() &&
                         name.compare(0, prefix.size(), prefix) == 0 && name[prefix.size()] == '.';
                });
      if (!used[c]) continue;
      kept.push_back(static_cast<int>(c));
      header.names.push_back(name);
      header.at.push_back(full.position(static_cast<int>(c)));
      flag[c] = std::find(flags.begin(), flags.end(), name) != flags.end();
      if (flag[c]) why[c] = kContactActivityMeaning;
    }
    kept_ = kept;
    reader_->read_columns(std::move(used), std::move(why), std::move(flag));
    stamps_ = TableTime(time_columns, time.scale);
    stamps_.count_from(clock);
  }

  // the next row's time (seconds since the clock's origin) and kept values; false at the end
  bool next(double& t, double* values) {
    if (!reader_->next(row_)) return false;
    for (size_t k = 0; k < kept_.size(); ++k) values[k] = row_[kept_[k]];
    stamps_.read(*reader_, reader_->line());
    t = stamps_.elapsed();
    try {
      if (read_any_) TimeSeries::check_after(last_, t);
    } catch (const InputError& e) {
      throw InputError(path_, reader_->line(), reader_->column_position(t_col_), e.phrase());
    }
    read_any_ = true;
    last_ = t;
    return true;
  }

 private:
  std::string path_;
  std::unique_ptr<TableReader> reader_;
  std::vector<int> kept_;
  TableTime stamps_{TimeColumns{}, 1};
  int t_col_ = -1;
  std::vector<double> row_;
  bool read_any_ = false;
  double last_ = 0;  // the time of the row read last
};

}  // namespace

TimeTable read_time_table(const std::string& path, const std::vector<std::string>& reads,
                          const TimeOptions& time, const TableTime& clock,
                          const std::vector<std::string>& flags) {
  TimeTable table{path, {}, TimeSeries(0), {}};
  TimeTableRows rows(path, reads, time, clock, table.header, table.columns, flags);
  table.series = TimeSeries(static_cast<int>(table.columns.size()));
  std::vector<double> values(table.columns.size());
  double t;
  while (rows.next(t, values.data())) {
    table.series.append(t, values.data());
  }
  if (table.series.rows() == 0) throw InputError(path, 1, 0, "the table has no rows");
  return table;
}

TimeTable stream_time_table(const std::string& path, const std::vector<std::string>& reads,
                            const TimeOptions& time, const TableTime& clock) {
  TimeTable table{path, {}, TimeSeries(0), {}};
  auto rows =
      std::make_shared<TimeTableRows>(path, reads, time, clock, table.header, table.columns);
  table.series = TimeSeries(static_cast<int>(table.columns.size()),
                            [rows](double& t, double* values) { return rows->next(t, values); });
  if (!table.series.reach(0)) throw InputError(path, 1, 0, "the table has no rows");
  return table;
}

int scan_table(const RowOptions& opt, const Model& model, const RowCommand& command,
               const std::string& path, const Notes& notes, nlohmann::json* dropped) {
  auto in = open_input(
      InputOptions{path, opt.from, opt.separator}, [&](const std::string& m) { notes.warning(m); },
      notes.names);
  const Binding b = bind(model, in->header(), in->name(), opt, command, notes);
  const std::unique_ptr<RowTask> task = command.make_task(in->header(), in->name(), notes);
  read_used_columns(*in, b, *task);
  TableSamples samples(model, *in, b, opt, notes, command.order, task->inputs);
  // as run_rows for one table: a second thread reads while this one computes, the rows in order
  if (opt.jobs != 1 && std::thread::hardware_concurrency() > 1) {
    Progress none(command.name, false, 1, 0);
    run_pipelined(
        model, command.order, *in, samples.source(),
        [&](const Sample& s) { task->compute(s, nullptr); }, none);
  } else {
    Sample s(model, command.order);
    while (samples.source().next(s)) task->compute(s, nullptr);
  }
  samples.report();
  if (dropped) *dropped = samples.dropped();
  return task->finish(notes);
}

Model load_robot(const RowOptions& opt, Streams& io, const std::string& command) {
  for (const auto& table : opt.tables) {
    if (table == "-" && opt.robot.path == "-") {
      throw InputError("ROBOT and TABLE cannot both be stdin: give one of them as a file");
    }
  }
  return load_robot(opt.robot, io, command, opt.quiet);
}

int run_rows(const RowOptions& opt, const Model& model, const RowCommand& command, Streams& io) {
  const bool summarize = !opt.summary.empty();
  MessageLog log;
  const Notes notes{io.err, command.name, opt.quiet, summarize ? &log : nullptr, io.names};
  std::error_code error;
  const auto size = opt.tables.size() == 1 && opt.tables[0] != "-"
                        ? std::filesystem::file_size(opt.tables[0], error)
                        : 0;
  Progress progress(command.name, !opt.quiet, opt.tables.size(),
                    error ? 0 : static_cast<double>(size));

  if (opt.output_dir.empty()) {
    if (opt.tables.size() > 1)
      throw InputError("several tables need " + Setting::output_dir + " DIR");
    check_destinations(io.inputs, {opt.output.path}, opt.summary);
    // one table: a second thread reads while this one computes and writes
    const bool pipelined = opt.jobs != 1 && std::thread::hardware_concurrency() > 1;
    nlohmann::json summary;
    std::unique_ptr<TableWriter> finished;
    const int rc = run_table(opt, model, command, opt.tables[0], opt.output.path, pipelined, notes,
                             progress, summarize ? &summary : nullptr, finished);
    std::vector<TableWriter*> tables;
    if (finished) tables.push_back(finished.get());
    commit_results(tables, opt.summary, nlohmann::json::array({summary}));
    return rc;
  }

  // batch: files are independent; each thread has its own task and workspace, messages are
  // printed in input order so the run is deterministic
  const std::vector<std::string> outputs = batch_outputs(opt.tables, opt.output_dir, opt.output);
  check_destinations(io.inputs, outputs, opt.summary);
  const size_t n = opt.tables.size();
  std::vector<std::string> messages(n);
  std::vector<int> rc(n, kExitOk);
  std::vector<MessageLog> logs(n);
  std::vector<nlohmann::json> summaries(n);
  // with a summary, the tables wait for it (finished, their descriptors closed): one result
  std::vector<std::unique_ptr<TableWriter>> finished(n);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < n;) {
      std::ostringstream out;
      const Notes file_notes{out, command.name, opt.quiet, summarize ? &logs[i] : nullptr,
                             io.names};
      try {
        rc[i] = run_table(opt, model, command, opt.tables[i], outputs[i], false, file_notes,
                          progress, summarize ? &summaries[i] : nullptr, finished[i]);
        if (finished[i] && !summarize) std::exchange(finished[i], nullptr)->commit();
      } catch (const std::exception& e) {
        const auto* input = dynamic_cast<const InputError*>(&e);
        file_notes.error(input ? input->text(io.names) : e.what());
        rc[i] = kExitUsage;
      }
      messages[i] = out.str();
      progress.file_done();
    }
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = std::min<size_t>(n, opt.jobs > 0 ? opt.jobs : cores);
  std::vector<std::thread> pool;
  for (size_t k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  for (const auto& s : messages) io.err << s;
  const int worst = *std::max_element(rc.begin(), rc.end());
  // a batch that fails with exit 2 writes no summary, and so none of the tables that wait for it
  if (summarize && worst != kExitUsage) {
    std::vector<TableWriter*> tables;
    for (const auto& table : finished) {
      if (table) tables.push_back(table.get());
    }
    commit_results(tables, opt.summary, summaries);  // input order
  }
  return worst;
}

}  // namespace eom::rows
