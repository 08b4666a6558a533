/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of PathSelectorNames: the table from short names to path selector TypeIds.
 */

#include "ns3/ecmp-path-selector.h"
#include "ns3/path-selector-names.h"

#include <gtest/gtest.h>

using ns3::PathSelectorNames;
using ns3::TypeId;

TEST(PathSelectorNames, TableNamesResolveOrSayTheyAreMissing)
{
    for (const PathSelectorNames::Entry& e : PathSelectorNames::GetTable())
    {
        PathSelectorNames::Choice c;
        std::string error;
        TypeId tid;
        bool registered = TypeId::LookupByNameFailSafe(e.second, &tid);
        EXPECT_EQ(PathSelectorNames::Lookup(e.first, c, error), registered) << e.first;
        if (registered)
        {
            EXPECT_EQ(c.tid, tid);
            EXPECT_EQ(c.name, e.first);
            EXPECT_TRUE(tid.IsChildOf(ns3::PathSelector::GetTypeId())) << e.second;
        }
        else
        {
            EXPECT_NE(error.find("not built"), std::string::npos) << error;
        }
    }
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
    EXPECT_NE(error.find("allowed: ecmp"), std::string::npos) << error;
    EXPECT_FALSE(PathSelectorNames::ParseList("--lb", "ecmp,ecmp", choices, error));
    EXPECT_NE(error.find("twice"), std::string::npos) << error;
    EXPECT_FALSE(PathSelectorNames::ParseList("--lb", "", choices, error));
    EXPECT_FALSE(PathSelectorNames::ParseList("--lb", "ecmp,", choices, error));
    std::vector<std::string> available = PathSelectorNames::GetAvailableNames();
    ASSERT_FALSE(available.empty());
    EXPECT_EQ(available.front(), "ecmp");
}
