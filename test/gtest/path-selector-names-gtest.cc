/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of PathSelectorNames, CongestionControlNames and PortSelectorNames: short names,
 * taken from the classes, and TypeIds.
 */

#include "ns3/ecmp-path-selector.h"
#include "ns3/path-selector-names.h"
#include "ns3/rng-seed-manager.h"

#include <gtest/gtest.h>

using ns3::PathSelectorNames;
using ns3::TypeId;

TEST(PathSelectorNames, NamesComeFromTheClassesInAlphabeticalOrder)
{
    std::vector<std::string> names;
    for (const PathSelectorNames::Entry& e : PathSelectorNames::GetTable())
    {
        PathSelectorNames::Choice c;
        std::string error;
        ASSERT_TRUE(PathSelectorNames::Lookup(e.first, c, error)) << error;
        EXPECT_EQ(c.tid, e.second);
        EXPECT_EQ(c.name, e.first);
        EXPECT_TRUE(e.second.IsChildOf(ns3::PathSelector::GetTypeId())) << e.first;
        EXPECT_EQ(PathSelectorNames::GetShortName(e.second), e.first);
        names.push_back(e.first);
    }
    const std::vector<std::string> module =
        {"bitmap", "ecmp", "flowlet", "mp", "mprdma", "mrc", "ops", "plb", "reps"};
    EXPECT_EQ(names, module);
    EXPECT_EQ(PathSelectorNames::GetAvailableNames(), module);
}

TEST(CongestionControlNames, NamesComeFromTheClasses)
{
    const std::vector<std::string> expected = {"dcqcn", "none", "nscc", "rccc", "window"};
    EXPECT_EQ(ns3::CongestionControlNames::GetAvailableNames(), expected);
    TypeId tid;
    std::string error;
    ASSERT_TRUE(ns3::CongestionControlNames::Lookup("window", tid, error)) << error;
    EXPECT_EQ(tid.GetName(), "ns3::RdmaWindowCongestionControl");
    ASSERT_TRUE(ns3::CongestionControlNames::Lookup("ns3::DcqcnCongestionControl", tid, error));
    EXPECT_FALSE(ns3::CongestionControlNames::Lookup("cubic", tid, error));
    EXPECT_NE(error.find("allowed: dcqcn, none, nscc, rccc, window"), std::string::npos) << error;
    EXPECT_FALSE(ns3::CongestionControlNames::Lookup("ns3::EcmpPathSelector", tid, error));
    EXPECT_NE(error.find("not a RdmaCongestionControl"), std::string::npos) << error;
}

TEST(PathSelectorNames, EcmpAndFullTypeIds)
{
    PathSelectorNames::Choice c;
    std::string error;
    ASSERT_TRUE(PathSelectorNames::Lookup("ecmp", c, error)) << error;
    EXPECT_EQ(c.tid, ns3::EcmpPathSelector::GetTypeId());
    ASSERT_TRUE(PathSelectorNames::Lookup("ns3::EcmpPathSelector", c, error)) << error;
    EXPECT_EQ(c.name, "ecmp");
    ASSERT_TRUE(PathSelectorNames::Lookup("bitmap", c, error)) << error;
    EXPECT_EQ(c.tid.GetName(), "ns3::BitmapPathSelector");
    ASSERT_TRUE(PathSelectorNames::Lookup("mprdma", c, error)) << error;
    EXPECT_EQ(c.tid.GetName(), "ns3::MprdmaPathSelector");
    EXPECT_FALSE(PathSelectorNames::Lookup("ns3::Object", c, error));
    EXPECT_NE(error.find("not a PathSelector"), std::string::npos) << error;
    EXPECT_FALSE(PathSelectorNames::Lookup("ns3::PathSelector", c, error)) << "abstract";
}

TEST(PathSelectorNames, ListsAreCheckedWithAHelpfulMessage)
{
    std::vector<PathSelectorNames::Choice> choices;
    std::string error;
    ASSERT_TRUE(PathSelectorNames::ParseList("--lb", "ecmp", choices, error)) << error;
    ASSERT_EQ(choices.size(), 1U);
    EXPECT_FALSE(PathSelectorNames::ParseList("--lb", "ecmp,foo", choices, error));
    EXPECT_NE(error.find("--lb"), std::string::npos) << error;
    EXPECT_NE(error.find("'foo'"), std::string::npos) << error;
    EXPECT_NE(error.find("allowed: bitmap, ecmp, flowlet"), std::string::npos) << error;
    EXPECT_FALSE(PathSelectorNames::ParseList("--lb", "ecmp,ecmp", choices, error));
    EXPECT_NE(error.find("twice"), std::string::npos) << error;
    EXPECT_FALSE(PathSelectorNames::ParseList("--lb", "", choices, error));
    EXPECT_FALSE(PathSelectorNames::ParseList("--lb", "ecmp,", choices, error));
    std::vector<std::string> available = PathSelectorNames::GetAvailableNames();
    ASSERT_FALSE(available.empty());
    EXPECT_EQ(available.front(), "bitmap");
}

TEST(PortSelectorNames, WordsComeFromTheTypeIds)
{
    std::vector<std::string> words;
    for (const PathSelectorNames::Entry& e : ns3::PortSelectorNames::GetTable())
    {
        TypeId tid;
        std::string error;
        ASSERT_TRUE(ns3::PortSelectorNames::Lookup(e.first, tid, error)) << error;
        EXPECT_EQ(tid, e.second);
        EXPECT_EQ(ns3::PortSelectorNames::GetShortName(tid), e.first);
        words.push_back(e.first);
    }
    const std::vector<std::string> module = {"adaptive", "dlb", "glb", "hash", "random"};
    EXPECT_EQ(words, module);
    EXPECT_EQ(ns3::PortSelectorNames::GetAvailableNames(), module);
    EXPECT_EQ(ns3::PortSelectorNames::GetShortName(TypeId::LookupByName("ns3::DlbPortSelector")),
              "dlb");
    EXPECT_EQ(ns3::PortSelectorNames::GetShortName(TypeId::LookupByName("ns3::PortSelector")),
              "portselector");
}

TEST(PortSelectorNames, TypeIdsAndHelpfulMessages)
{
    TypeId tid;
    std::string error;
    ASSERT_TRUE(ns3::PortSelectorNames::Lookup("ns3::GlbPortSelector", tid, error)) << error;
    EXPECT_EQ(tid.GetName(), "ns3::GlbPortSelector");
    EXPECT_FALSE(ns3::PortSelectorNames::Lookup("spray", tid, error));
    EXPECT_NE(error.find("unknown port selector 'spray'; allowed: adaptive, dlb, glb, hash, "
                         "random, or the TypeId of a PortSelector subclass"),
              std::string::npos)
        << error;
    EXPECT_FALSE(ns3::PortSelectorNames::Lookup("ns3::EcmpPathSelector", tid, error));
    EXPECT_NE(error.find("not a PortSelector"), std::string::npos) << error;
    EXPECT_FALSE(ns3::PortSelectorNames::Lookup("ns3::PortSelector", tid, error)) << "abstract";
    EXPECT_FALSE(ns3::PortSelectorNames::Lookup("", tid, error));
}

TEST(PortSelectorNames, NamingCreatesNoSelector)
{
    // A selector takes an automatic random stream when created; naming them must not, or
    // every stream drawn after the options are parsed would move.
    uint64_t before = ns3::RngSeedManager::GetNextStreamIndex();
    ns3::PortSelectorNames::GetAvailableNames();
    EXPECT_EQ(ns3::RngSeedManager::GetNextStreamIndex(), before + 1);
}
