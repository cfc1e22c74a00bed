#pragma once
// Errors at API boundaries are values: Result<T> holds either a T or an Error saying what and
// where.
#include <string>
#include <utility>
#include <variant>

namespace rainet {

struct Error {
    std::string
        message;  // complete human-readable sentence fragment, e.g. "board: bad character 'Q'"
};

template <class T>
class Result {
  public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error e) : v_(std::move(e)) {}
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    const Error& error() const { return std::get<1>(v_); }

  private:
    std::variant<T, Error> v_;
};

}  // namespace rainet
