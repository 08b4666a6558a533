/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ATTRIBUTE_ALIAS_H
#define REPS_ATTRIBUTE_ALIAS_H

#include "ns3/attribute.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class ExperimentReport;

/**
 * \ingroup reps
 * A command-line option that is another name of one model attribute, as
 * CommandLine::AddValue(name, "ns3::Type::Attribute") is in ns-3: its help text, default, type
 * and range come from the attribute's TypeId::AttributeInformation, and a value given reaches
 * every object made afterwards through Config::SetDefault().
 *
 * Values are read strictly (whole numbers, finite numbers, times, rates, sizes, the lower-case
 * names of an enum) and checked against the attribute's checker; a bad one gives a sentence
 * naming the option and what is allowed, never ns-3's abort.
 *
 * An alias is the whole configuration of its attribute for one experiment: constructing it
 * restores the attribute's default as the process first saw it, so that an experiment does not
 * inherit the values of the one before it in the same process. A value given later on the same
 * command line, by the alias or as --ns3::Type::Attribute, overrides it.
 */
class AttributeAlias
{
  public:
    /// How a bare number is read, for attributes whose unit the old option implied.
    enum class Unit : uint8_t
    {
        NONE,    //!< As the attribute's own value.
        BYTES,   //!< A whole-number attribute in bytes: also a size such as 512KiB.
        PACKETS, //!< A QueueSize attribute: a whole number of packets.
        NEVER,   //!< A Time attribute whose Time::Max() means never: also the word never.
    };

    /**
     * \param name the option's name (without --)
     * \param path the attribute, "ns3::Type::Attribute", on the type that declares it
     * \param unit how a bare number is read
     */
    AttributeAlias(const std::string& name, const std::string& path, Unit unit = Unit::NONE);

    /// \return the option's name
    const std::string& GetName() const;
    /// \return the attribute, "ns3::Type::Attribute"
    const std::string& GetPath() const;
    /// \return the attribute's help, what is allowed and the attribute's path
    std::string GetHelp() const;
    /// \return what a value may be, e.g. "1 to 65536" or "dequeue or enqueue"
    std::string GetAllowed() const;

    /**
     * Read, check and apply a value (Config::SetDefault).
     * \param text the value as given
     * \param [out] error the sentence naming the option and what is allowed, when refused
     * \return whether it was taken
     */
    bool Set(const std::string& text, std::string& error);

    /**
     * Read and check a value without applying it.
     * \param text the value as given
     * \param [out] error the sentence naming the option and what is allowed, when refused
     * \return the value, or null when refused
     */
    Ptr<AttributeValue> Parse(const std::string& text, std::string& error) const;

    /// \return the value objects made now get (the attribute's current default)
    Ptr<AttributeValue> GetValue() const;
    /// \return the attribute's default as the process first saw it
    Ptr<const AttributeValue> GetOriginalValue() const;

    /**
     * \param value a value of the attribute
     * \return it as the option writes it (e.g. 10ms, 512KiB, dequeue, 20, never)
     */
    std::string Format(const AttributeValue& value) const;

    /// \return the current value as the option writes it
    std::string GetText() const;

    /**
     * \return the current value as a whole number (whole-number, packet-count and boolean
     *         attributes; aborts for others: a programming error)
     */
    uint64_t GetUnsigned() const;

    /// \return the current value as a Time (Time attributes)
    Time GetTime() const;

    /**
     * Record the current value in a report's configuration under the option's name: a number
     * for numbers and packet counts, a boolean for booleans, else the option's text.
     * \param report the report
     */
    void Record(ExperimentReport& report) const;

  private:
    /// Kinds of attribute value read by the alias.
    enum class Kind : uint8_t
    {
        UNSIGNED, //!< ns3::UintegerValue.
        SIGNED,   //!< ns3::IntegerValue.
        REAL,     //!< ns3::DoubleValue.
        BOOLEAN,  //!< ns3::BooleanValue.
        TIME,     //!< ns3::TimeValue.
        RATE,     //!< ns3::DataRateValue.
        QUEUE,    //!< ns3::QueueSizeValue.
        ENUM,     //!< ns3::EnumValue.
        OTHER,    //!< Anything else: the checker reads the text.
    };

    /// \return the names of the enum's values, as the checker lists them
    std::vector<std::string> EnumNames() const;
    /**
     * \param text a value given for a Time attribute
     * \param [out] error why it was refused
     * \return the value, or null
     */
    Ptr<AttributeValue> ParseTimeValue(const std::string& text, std::string& error) const;
    /**
     * \param text a value given for a whole-number attribute
     * \param [out] error why it was refused
     * \return the value, or null
     */
    Ptr<AttributeValue> ParseWhole(const std::string& text, std::string& error) const;
    /**
     * \param text a value given for an enum attribute
     * \param [out] error why it was refused
     * \return the value, or null
     */
    Ptr<AttributeValue> ParseEnum(const std::string& text, std::string& error) const;

    std::string m_name;                   //!< Option name.
    std::string m_path;                   //!< Attribute path.
    Unit m_unit;                          //!< How a bare number is read.
    Kind m_kind;                          //!< Kind of value.
    TypeId m_tid;                         //!< Type declaring the attribute.
    std::string m_attribute;              //!< Attribute name.
    TypeId::AttributeInformation m_info;  //!< The attribute, as registered.
    Ptr<const AttributeValue> m_original; //!< Default as the process first saw it.
};

} // namespace ns3

#endif /* REPS_ATTRIBUTE_ALIAS_H */
