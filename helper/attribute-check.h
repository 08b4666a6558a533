/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ATTRIBUTE_CHECK_H
#define REPS_ATTRIBUTE_CHECK_H

#include "ns3/attribute.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Checks an attribute value against a TypeId before ns-3 applies it: ns-3's own
 * ObjectBase::SetAttribute() and ObjectFactory::Set() abort on a value out of range ("could
 * not be set") without saying what is allowed. The helpers check each name/value pair a
 * script gives them with Check(), keep the first refusal, and stop with it (Exit()) where
 * they would build or install something.
 *
 * \code
 *   Ptr<AttributeValue> valid;
 *   std::string error = AttributeCheck::Check("RdmaHelper::SetQueuePairAttribute",
 *                                             RdmaQueuePair::GetTypeId(), "Mtu",
 *                                             UintegerValue(70000), valid);
 *   // "RdmaHelper::SetQueuePairAttribute: ns3::RdmaQueuePair::Mtu = 70000 is out of range;
 *   //  allowed: 0 to 65000"
 * \endcode
 */
class AttributeCheck
{
  public:
    /// Attribute names and values, in the order given (a helper's variadic arguments).
    using AttributeList = std::vector<std::pair<std::string, Ptr<const AttributeValue>>>;

    /// End of the recursion of Collect().
    /// \param list the list
    static void Collect(AttributeList& list)
    {
    }

    /**
     * Collect the name/value pairs of a helper's variadic arguments (as ObjectFactory takes
     * them), to be checked one by one.
     * \tparam Ts \deduced more pairs
     * \param list the list to append to
     * \param name an attribute name
     * \param value its value
     * \param args more pairs
     */
    template <typename... Ts>
    static void Collect(AttributeList& list,
                        const std::string& name,
                        const AttributeValue& value,
                        Ts&&... args)
    {
        list.emplace_back(name, value.Copy());
        Collect(list, std::forward<Ts>(args)...);
    }

    /**
     * Check a value for an attribute of a type (or of one of its parents).
     * \param who the object or method the value was given to, first in the message
     * \param tid the type that has the attribute
     * \param name the attribute
     * \param value its value (typed, or a StringValue as ObjectFactory takes it)
     * \param [out] valid the value converted to the attribute's kind, when it is allowed
     * \return an empty string when allowed, else a message naming who, the type, the
     *         attribute, the value and what is allowed
     */
    static std::string Check(const std::string& who,
                             TypeId tid,
                             const std::string& name,
                             const AttributeValue& value,
                             Ptr<AttributeValue>& valid);

    /**
     * Check() a value for an attribute of a factory's type and, when allowed, set it there.
     * \param who the method or object that takes it, as the message's prefix
     * \param factory the factory
     * \param name the attribute
     * \param value its value (typed, or a StringValue)
     * \return an empty string when set, else Check()'s message (the factory is unchanged)
     */
    static std::string SetOn(const std::string& who,
                             ObjectFactory& factory,
                             const std::string& name,
                             const AttributeValue& value);

    /**
     * What a checker accepts, in words: "68 to 65535", "a Time, 1ns to 1s", "true or false",
     * the names of an enum; ns-3's own description for other kinds.
     * \param checker the attribute's checker
     * \return the allowed values
     */
    static std::string Allowed(Ptr<const AttributeChecker> checker);

    /**
     * Stop the program with a message: printed to the standard error as "error: message",
     * exit status 1 (a refused configuration is the user's error, not a crash: no abort, no
     * core dump).
     * \param message what was refused
     */
    [[noreturn]] static void Exit(const std::string& message);
};

} // namespace ns3

#endif /* REPS_ATTRIBUTE_CHECK_H */
