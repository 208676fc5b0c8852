// The writer of tables in every format, through an OutputFile.
#include <cmath>
#include <iostream>
#include <utility>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "eom/io/table.hpp"
#include "io/csv.hpp"
#include "io/json.hpp"
#include "eom/io/output_file.hpp"

namespace eom {
namespace {

using detail::append_csv_text;
using detail::append_json_string;

constexpr size_t kWriteChunk = size_t{1} << 16;

class Writer final : public TableWriter {
 public:
  Writer(Format format, Header header) : format_(format) {
    header_ = std::move(header);
    buffer_.reserve(kWriteChunk + 4096);
    const auto& names = header_.names;
    for (size_t c = 0; c < names.size(); ++c) {
      std::string prefix = c ? "," : "";
      if (format == Format::csv) {
        append_csv_text(buffer_, names[c]);
        buffer_ += c + 1 < names.size() ? "," : "";
      } else {
        append_json_string(prefix, names[c]);
        prefix += ':';
      }
      prefixes_.push_back(std::move(prefix));
    }
    if (format == Format::csv) buffer_ += '\n';
    if (format == Format::json) buffer_ += "[\n";
    row_start_ = format == Format::csv ? "" : "{";
    row_end_ = format == Format::csv ? "\n" : format == Format::ndjson ? "}\n" : "}";
  }

  OutputFile& file() { return file_; }

 private:
  // a field as the input wrote it, in this format; `value` is its number, if it is one
  void append_field(const Field& field, double value) {
    const bool csv = format_ == Format::csv;
    switch (field.kind) {
      case FieldKind::number: {
        // most numbers are written in shortest form already: printing the double read says so
        const size_t start = buffer_.size();
        if (std::isfinite(value)) {
          append_number(buffer_, value);
          if (buffer_.compare(start, std::string::npos, field.text) == 0) return;
          buffer_.resize(start);
        }
        append_number_text(buffer_, field.text);
        return;
      }
      case FieldKind::text:
        if (csv) {
          append_csv_text(buffer_, field.text);
        } else {
          append_json_string(buffer_, field.text);
        }
        return;
      case FieldKind::empty:
        if (!csv) buffer_ += "null";
        return;
      case FieldKind::literal:
        buffer_ += field.text;
        return;
      case FieldKind::json:
        if (csv) {
          append_csv_text(buffer_, field.text);
        } else {
          buffer_ += field.text;
        }
        return;
      case FieldKind::none:
        return;
    }
  }

 public:
  using TableWriter::write_row;

  void write_row(const double* values, const Field* fields) override {
    if (rows_ > 0 && format_ == Format::json) buffer_ += ",\n";
    buffer_ += row_start_;
    for (size_t c = 0; c < prefixes_.size(); ++c) {
      if (fields && fields[c].kind != FieldKind::none) {
        buffer_ += prefixes_[c];
        append_field(fields[c], values[c]);
        continue;
      }
      if (!std::isfinite(values[c])) {
        throw NumericalError("row " + std::to_string(rows_ + 1) + ", column " +
                             shown_input(header_.names[c]) + ": cannot write " +
                             fixed_text(values[c], 6) + ", tables hold finite numbers only");
      }
      buffer_ += prefixes_[c];
      append_number(buffer_, values[c]);
    }
    buffer_ += row_end_;
    ++rows_;
    if (buffer_.size() >= kWriteChunk) drain();
  }

  void flush() override {
    drain();
    file_.flush();
  }

  void finish() override {
    if (finished_) return;
    if (format_ == Format::json && rows_ == 0 && buffer_ == "[\n") {
      // an empty array of rows would lose the columns: write the columns form, {"t":[],...}
      buffer_ = "{";
      for (const std::string& prefix : prefixes_) buffer_ += prefix + "[]";
      buffer_ += "}\n";
    } else if (format_ == Format::json) {
      buffer_ += rows_ > 0 ? "\n]\n" : "]\n";
    }
    drain();
    file_.finish();
    finished_ = true;
    // a batch keeps its finished tables until the summary is written: only the header stays
    std::string().swap(buffer_);
    std::vector<std::string>().swap(prefixes_);
  }

  void commit() override {
    finish();
    file_.commit();
  }

  void commit_as(const std::string& path) override {
    finish();
    file_.commit_as(path);
  }

  bool written_in_place() const override { return file_.written_in_place(); }

 private:
  void drain() {
    file_.write(buffer_);
    buffer_.clear();
  }

  Format format_;
  std::vector<std::string> prefixes_;  // what goes before each value: separator, JSON key
  const char* row_start_ = "";
  const char* row_end_ = "";
  std::string buffer_;
  long long rows_ = 0;
  bool finished_ = false;
  OutputFile file_;
};

}  // namespace

std::unique_ptr<TableWriter> TableWriter::open(const std::string& path, Format format,
                                               Header header) {
  auto writer = std::make_unique<Writer>(format, std::move(header));
  if (path == "-") {
    writer->file().to_stream(std::cout, "<stdout>");
  } else {
    writer->file().to_file(path);
  }
  return writer;
}

std::unique_ptr<TableWriter> TableWriter::to_stream(std::ostream& out, Format format,
                                                    Header header) {
  auto writer = std::make_unique<Writer>(format, std::move(header));
  writer->file().to_stream(out, "<stream>");
  return writer;
}

void write_table(const Table& table, const std::string& path, Format format) {
  const auto writer = TableWriter::open(path, format, table.header);
  for (int r = 0; r < table.rows(); ++r) {
    writer->write_row(table.values.data() + static_cast<size_t>(r) * table.header.names.size());
  }
  writer->commit();
}

}  // namespace eom
