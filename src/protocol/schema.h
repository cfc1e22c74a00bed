#pragma once
// The field tables of the server's messages. Every message and shared object is a struct
// with one `describe(visitor)` that names its fields in wire order:
//     w.constant("type", "presence");  // a literal (the discriminators `type` and `kind`)
//     w.field("game", game);           // always present; a std::optional is written as null
//     w.optional("away", away);        // omitted while empty (std::optional or a pointer)
// field() and optional() take a third argument, the field's doc comment in the TypeScript.
// From that one table come the serializer (JsonWriter: JSON text, byte for byte as nlohmann's
// compact dump of the same fields), the runtime Schema (schemaOf<T>()) that the validator
// (tests/support/protocol_validate.h) and the TypeScript generator (typescript.h) read, so that
// none can drift. A field's JSON type follows from its C++ type: strings, bool, integers, enums
// with EnumInfo (a closed set of strings), doubles (numbers), Json (a request id, echoed), vectors
// and ranges (arrays), StringMap (an object keyed by data), nested described structs (objects).
#include <array>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/action.h"
#include "protocol/json_out.h"

namespace rainet::protocol {

// Specialised for each enum sent as a string: `kName` (its TypeScript name) and `kNames` (the
// string of each enumerator, indexed by its underlying value).
template <class E>
struct EnumInfo;

template <class E>
concept NamedEnum = std::is_enum_v<E> && requires {
    EnumInfo<E>::kNames;
};

template <NamedEnum E>
constexpr std::string_view nameOf(E e) {
    return EnumInfo<E>::kNames[static_cast<std::size_t>(e)];
}

template <NamedEnum E>
constexpr std::optional<E> enumFromName(std::string_view s) {
    for (std::size_t i = 0; i < EnumInfo<E>::kNames.size(); ++i)
        if (EnumInfo<E>::kNames[i] == s) return static_cast<E>(i);
    return std::nullopt;
}

struct Schema;

// The JSON type of one field, as the schema knows it.
struct Type {
    enum class Kind : std::uint8_t {
        String,
        Integer,
        Boolean,
        Enum,     // a string among `values`, named `name` in TypeScript
        Literal,  // exactly values[0]
        Id,       // a request id: a string or an integer
        Object,   // `object`
        Array,    // of `element`
        Number,   // a JSON number that may have a fraction
        Map,      // an object whose keys are data (strings), each value of `element`
        Data,     // a JSON object whose fields depend on a sibling field (RawObject)
    };
    Kind kind = Kind::String;
    bool nullable = false;
    std::string_view name;  // Enum
    std::vector<std::string_view> values;
    const Schema* object = nullptr;
    std::shared_ptr<const Type> element;
};

struct Field {
    std::string_view name;
    Type type;
    bool optional = false;  // may be absent
    std::string_view doc;   // a comment for the TypeScript (empty: none)
};

struct Schema {
    std::string_view name;  // the TypeScript interface
    std::vector<Field> fields;
    const Field* find(std::string_view field) const {
        for (const Field& f : fields)
            if (f.name == field) return &f;
        return nullptr;
    }
};

template <class T>
concept Described = requires(const T& t) {
    T::kName;
};

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class T>
concept Range = !std::is_convertible_v<const T&, std::string_view> && requires(const T& t) {
    t.begin();
    t.end();
};

// An object whose keys are data, in the order given (the analysis's virus odds per square).
template <class T>
struct StringMap {
    static constexpr bool kMap = true;
    using value_type = T;
    std::vector<std::pair<std::string, T>> entries;
    bool operator==(const StringMap&) const = default;
};

template <class T>
concept MapType = requires {
    T::kMap;
};

// A JSON object written as the text it holds (a notification's `data`, stored as text): its
// fields depend on a sibling field (the kind), described in docs/protocol.md. Empty: {}.
struct RawObject {
    static constexpr bool kRawObject = true;
    std::string text;
    bool operator==(const RawObject&) const = default;
};

template <Described T>
const Schema& schemaOf();

// The schema type of a C++ field type.
template <class T>
Type typeOf() {
    Type t;
    if constexpr (IsOptional<T>::value) {
        t = typeOf<typename T::value_type>();
        t.nullable = true;
    } else if constexpr (std::is_same_v<T, bool>) {
        t.kind = Type::Kind::Boolean;
    } else if constexpr (NamedEnum<T>) {
        t.kind = Type::Kind::Enum;
        t.name = EnumInfo<T>::kName;
        t.values.assign(EnumInfo<T>::kNames.begin(), EnumInfo<T>::kNames.end());
    } else if constexpr (std::is_integral_v<T>) {
        t.kind = Type::Kind::Integer;
    } else if constexpr (std::is_floating_point_v<T>) {
        t.kind = Type::Kind::Number;
    } else if constexpr (std::is_same_v<T, RawObject>) {
        t.kind = Type::Kind::Data;
    } else if constexpr (MapType<T>) {
        t.kind = Type::Kind::Map;
        t.element = std::make_shared<const Type>(typeOf<typename T::value_type>());
    } else if constexpr (std::is_convertible_v<const T&, std::string_view> ||
                         std::is_same_v<T, Action>) {
        t.kind = Type::Kind::String;
    } else if constexpr (std::is_same_v<T, nlohmann::ordered_json>) {
        t.kind = Type::Kind::Id;
    } else if constexpr (Described<T>) {
        t.kind = Type::Kind::Object;
        t.object = &schemaOf<T>();
    } else if constexpr (Range<T>) {
        t.kind = Type::Kind::Array;
        t.element = std::make_shared<const Type>(
            typeOf<std::remove_cvref_t<decltype(*std::declval<const T&>().begin())>>());
    } else {
        static_assert(T::kStringType, "a field type the schema does not know");
        t.kind = Type::Kind::String;  // types that write themselves as a JSON string
    }
    return t;
}

// Builds a Schema from a (default) value's describe().
class SchemaBuilder {
  public:
    explicit SchemaBuilder(Schema& s) : s_(s) {}
    void constant(std::string_view name, std::string_view value) {
        Type t;
        t.kind = Type::Kind::Literal;
        t.values = {value};
        s_.fields.push_back({name, std::move(t), false, {}});
    }
    template <class T>
    void field(std::string_view name, const T&, std::string_view doc = {}) {
        s_.fields.push_back({name, typeOf<T>(), false, doc});
    }
    template <class T>
    void optional(std::string_view name, const T&, std::string_view doc = {}) {
        using Inner = std::remove_cvref_t<decltype(*std::declval<const T&>())>;
        s_.fields.push_back({name, typeOf<Inner>(), true, doc});
    }

  private:
    Schema& s_;
};

template <Described T>
const Schema& schemaOf() {
    static const Schema s = [] {
        Schema out{T::kName, {}};
        SchemaBuilder b(out);
        T{}.describe(b);
        return out;
    }();
    return s;
}

template <class T>
void writeValue(std::string& out, const T& x);

// Writes the fields a describe() names as one JSON object.
class JsonWriter {
  public:
    explicit JsonWriter(std::string& out) : out_(out) {}
    template <std::size_t N>
    void constant(const char (&name)[N], std::string_view value) {
        key(name);
        out_ += '"';
        out_ += value;  // literals are plain words
        out_ += '"';
    }
    template <std::size_t N, class T>
    void field(const char (&name)[N], const T& x, std::string_view /*doc*/ = {}) {
        key(name);
        writeValue(out_, x);
    }
    template <std::size_t N, class T>
    void optional(const char (&name)[N], const T& x, std::string_view /*doc*/ = {}) {
        if (!x) return;
        key(name);
        writeValue(out_, *x);
    }

  private:
    // `{"name":` or `,"name":` in one append of a size known at compile time: the per-field cost
    // of the hot action event (field names are plain words, never escaped).
    template <std::size_t N>
    void key(const char (&name)[N]) {
        char buf[N + 3];
        buf[0] = first_ ? '{' : ',';
        buf[1] = '"';
        std::memcpy(buf + 2, name, N - 1);
        buf[N + 1] = '"';
        buf[N + 2] = ':';
        out_.append(buf, N + 3);
        first_ = false;
    }
    friend void closeObject(JsonWriter& w) { w.out_ += w.first_ ? "{}" : "}"; }
    std::string& out_;
    bool first_ = true;
};

template <class T>
void writeValue(std::string& out, const T& x) {
    if constexpr (IsOptional<T>::value) {
        if (x)
            writeValue(out, *x);
        else
            out += "null";
    } else if constexpr (std::is_same_v<T, bool>) {
        out += x ? "true" : "false";
    } else if constexpr (NamedEnum<T>) {
        out += '"';
        out += nameOf(x);
        out += '"';
    } else if constexpr (std::is_integral_v<T>) {
        json_out::integer(out, static_cast<std::int64_t>(x));
    } else if constexpr (std::is_floating_point_v<T>) {
        json_out::number(out, static_cast<double>(x));
    } else if constexpr (std::is_same_v<T, RawObject>) {
        out += x.text.empty() ? std::string_view("{}") : std::string_view(x.text);
    } else if constexpr (MapType<T>) {
        out += '{';
        bool first = true;
        for (const auto& [key, value] : x.entries) {
            if (!first) out += ',';
            first = false;
            json_out::string(out, key);
            out += ':';
            writeValue(out, value);
        }
        out += '}';
    } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
        json_out::string(out, x);
    } else if constexpr (std::is_same_v<T, Action>) {
        out += '"';
        appendTo(out, x);
        out += '"';
    } else if constexpr (std::is_same_v<T, nlohmann::ordered_json>) {
        json_out::value(out, x);
    } else if constexpr (Described<T>) {
        JsonWriter w(out);
        x.describe(w);
        closeObject(w);
    } else if constexpr (Range<T>) {
        out += '[';
        bool first = true;
        for (const auto& e : x) {
            if (!first) out += ',';
            first = false;
            writeValue(out, e);
        }
        out += ']';
    } else {
        x.writeJson(out);
    }
}

// The JSON text of one message or object.
template <Described T>
std::string render(const T& x) {
    std::string out;
    writeValue(out, x);
    return out;
}

}  // namespace rainet::protocol
