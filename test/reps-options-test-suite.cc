/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The options of the experiments that are another name of a model attribute: their defaults,
// help and ranges are the attribute's, a value reaches the objects made afterwards, a bad one is
// refused with a message naming the option, and one experiment's values do not leak into the
// next one made in the same process.

#include "reps-test-compat.h"

#include "ns3/attribute-alias.h"
#include "ns3/boolean.h"
#include "ns3/clos-plane.h"
#include "ns3/ecn-queue-disc.h"
#include "ns3/experiment-report.h"
#include "ns3/fabric-experiment.h"
#include "ns3/object-factory.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <set>
#include <string>

using namespace ns3;

namespace
{

/**
 * \param path "ns3::Type::Attribute"
 * \return the attribute's registered information (its current default)
 */
TypeId::AttributeInformation
Lookup(const std::string& path)
{
    const std::size_t cut = path.rfind("::");
    TypeId::AttributeInformation info;
    TypeId::LookupByName(path.substr(0, cut)).LookupAttributeByName(path.substr(cut + 2), &info);
    return info;
}

} // namespace

/**
 * \ingroup reps-test
 * Every aliased option of an experiment: its default is the attribute's, its help is the
 * attribute's, and no option name or attribute is registered twice.
 */
class AliasDefaultsTestCase : public TestCase
{
  public:
    AliasDefaultsTestCase()
        : TestCase("Every aliased option's default and help are its attribute's")
    {
    }

  private:
    void DoRun() override
    {
        FabricExperiment e;
        const OptionRegistry& registry = e.GetRegistry();
        NS_TEST_ASSERT_MSG_GT(registry.GetAliases().size(), 15, "the model's knobs are aliases");
        std::set<std::string> paths;
        for (const AttributeAlias* a : registry.GetAliases())
        {
            TypeId::AttributeInformation info = Lookup(a->GetPath());
            NS_TEST_ASSERT_MSG_EQ(paths.insert(a->GetPath()).second,
                                  true,
                                  a->GetPath() << " has one option");
            NS_TEST_ASSERT_MSG_EQ(a->GetValue()->SerializeToString(info.checker),
                                  a->GetOriginalValue()->SerializeToString(info.checker),
                                  "--" << a->GetName() << ": a new experiment starts from the "
                                       << "attribute's default");
            NS_TEST_ASSERT_MSG_EQ(a->GetHelp().compare(0, info.help.size(), info.help),
                                  0,
                                  "--" << a->GetName() << ": the help is the attribute's");
            NS_TEST_ASSERT_MSG_NE(a->GetHelp().find(a->GetPath()),
                                  std::string::npos,
                                  "--" << a->GetName() << ": the help names the attribute");
            // The default as --help and the report write it reads back as the same value.
            std::string error;
            Ptr<AttributeValue> back = a->Parse(a->GetText(), error);
            NS_TEST_ASSERT_MSG_EQ(error, "", "--" << a->GetName() << " reads its own default");
            NS_TEST_ASSERT_MSG_EQ(back->SerializeToString(info.checker),
                                  a->GetValue()->SerializeToString(info.checker),
                                  "--" << a->GetName() << ": " << a->GetText());
        }
        std::set<std::string> names;
        for (const std::string& name : e.GetOptionNames())
        {
            NS_TEST_ASSERT_MSG_EQ(names.insert(name).second, true, "--" << name << " once");
        }
    }
};

/**
 * \ingroup reps-test
 * A value given to an alias reaches the objects made afterwards and the report; the next
 * experiment starts again from the defaults; a bad value is refused, naming the option and the
 * allowed range, and changes nothing.
 */
class AliasValuesTestCase : public TestCase
{
  public:
    AliasValuesTestCase()
        : TestCase("Aliased options reach the model, reset per experiment, refuse bad values")
    {
    }

  private:
    void DoRun() override
    {
        {
            FabricExperiment e;
            e.Set("ecnKmin", "7");
            e.Set("markOn", "enqueue");
            e.Set("ackEveryBytes", "16KiB");
            e.Set("minRto", "40us");
            e.Set("reconverge", "20us");
            NS_TEST_ASSERT_MSG_EQ(CreateObject<ClosPlane>()->GetRoutingConvergenceDelay(),
                                  MicroSeconds(20),
                                  "--reconverge reaches a new plane");
            Ptr<EcnQueueDisc> q = CreateObject<EcnQueueDisc>();
            QueueSizeValue kmin;
            q->GetAttribute("Kmin", kmin);
            NS_TEST_ASSERT_MSG_EQ(kmin.Get(), QueueSize("7p"), "--ecnKmin reaches a new queue");
            StringValue markOn;
            q->GetAttribute("MarkOn", markOn);
            NS_TEST_ASSERT_MSG_EQ(markOn.Get(), "Enqueue", "--markOn");
            ObjectFactory qp("ns3::RdmaQueuePair");
            Ptr<Object> pair = qp.Create();
            UintegerValue bytes;
            pair->GetAttribute("AckEveryBytes", bytes);
            NS_TEST_ASSERT_MSG_EQ(bytes.Get(), 16384, "--ackEveryBytes takes a size");
            NS_TEST_ASSERT_MSG_EQ(e.GetAlias("minRto").GetTime(), MicroSeconds(40), "--minRto");
            ExperimentReport report;
            e.GetRegistry().FillConfig(report);
            const std::string json = report.ToJson();
            NS_TEST_ASSERT_MSG_NE(json.find("\"ecnKmin\": 7"), std::string::npos, json);
            NS_TEST_ASSERT_MSG_NE(json.find("\"markOn\": \"enqueue\""), std::string::npos, json);
            NS_TEST_ASSERT_MSG_NE(json.find("\"ackEveryBytes\": \"16KiB\""),
                                  std::string::npos,
                                  json);
            NS_TEST_ASSERT_MSG_NE(json.find("\"minRto\": \"40us\""), std::string::npos, json);
            NS_TEST_ASSERT_MSG_NE(json.find("\"reconverge\": \"20us\""), std::string::npos, json);
        }
        FabricExperiment next;
        NS_TEST_ASSERT_MSG_EQ(next.GetAlias("ecnKmin").GetText(), "20", "no leak into the next");
        NS_TEST_ASSERT_MSG_EQ(next.GetAlias("markOn").GetText(), "dequeue", "no leak");
        NS_TEST_ASSERT_MSG_EQ(next.GetAlias("minRto").GetText(), "0", "no leak");
        // Time::Max(), the attribute's default, is written and read as never.
        NS_TEST_ASSERT_MSG_EQ(next.GetAlias("reconverge").GetText(), "never", "no leak");
        NS_TEST_ASSERT_MSG_EQ(next.GetAlias("reconverge").GetTime(), Time::Max(), "never");
        {
            ExperimentReport report;
            next.GetRegistry().FillConfig(report);
            const std::string json = report.ToJson();
            NS_TEST_ASSERT_MSG_NE(json.find("\"reconverge\": \"never\""), std::string::npos, json);
        }

        struct Bad
        {
            std::string name;    //!< Option.
            std::string value;   //!< Value.
            std::string message; //!< Part of the message.
        };

        const Bad bad[] = {
            {"trimSize",
             "43",
             "--trimSize: 43 is out of range; expected a whole number in [44, 9000]"},
            {"trimSize", "1.5", "--trimSize: '1.5' is not a whole number"},
            {"markOn",
             "sometimes",
             "--markOn: unknown value 'sometimes'; allowed: dequeue, enqueue"},
            {"freezeDuration",
             "2s",
             "--freezeDuration: 2s is out of range; allowed: a Time, 1ns to 1s"},
            {"pfcAlpha",
             "65",
             "--pfcAlpha: 65 is out of range; expected a number in [0.0078125, 64]"},
            {"pfcBuffer", "2GiB", "--pfcBuffer: 2GiB is out of range; allowed: 1KiB to 1GiB"},
            {"freezing", "maybe", "--freezing"},
            {"ecnKmax", "-1", "--ecnKmax: '-1' is not a whole number"},
            {"noSuchOption", "1", "--noSuchOption: not an option"},
            {"reconverge", "nevermore", "--reconverge: 'nevermore' is not a time"},
        };
        for (const Bad& b : bad)
        {
            std::string error;
            NS_TEST_ASSERT_MSG_EQ(next.Set(b.name, b.value, error),
                                  false,
                                  b.name << "=" << b.value);
            NS_TEST_ASSERT_MSG_NE(error.find(b.message), std::string::npos, error);
        }
        NS_TEST_ASSERT_MSG_EQ(next.GetAlias("trimSize").GetText(), "64", "unchanged by a refusal");
    }
};

/**
 * \ingroup reps-test
 * The options of the experiments.
 */
class RepsOptionsTestSuite : public TestSuite
{
  public:
    RepsOptionsTestSuite()
        : TestSuite("reps-options", TestSuite::Type::UNIT)
    {
        AddTestCase(new AliasDefaultsTestCase(), reps::kQuick);
        AddTestCase(new AliasValuesTestCase(), reps::kQuick);
    }
};

/// The suite's instance.
static RepsOptionsTestSuite g_repsOptionsTestSuite;
