#pragma once
// Errors at API boundaries are values: Result<T> holds either a T or an Error saying what and
// where.
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace rainet {

struct Error {
    std::string
        message;  // complete human-readable sentence fragment, e.g. "board: bad character 'Q'"
};

template <class T>
class [[nodiscard]] Result {
  public:
    // From anything a T is made of (so Result<std::optional<X>> takes an X or std::nullopt).
    template <class U = T>
    requires(std::is_constructible_v<T, U&&> && !std::is_same_v<std::remove_cvref_t<U>, Error> &&
             !std::is_same_v<std::remove_cvref_t<U>, Result>) Result(U&& value)
        : v_(std::in_place_index<0>, std::forward<U>(value)) {}
    Result(Error e) : v_(std::in_place_index<1>, std::move(e)) {}
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
