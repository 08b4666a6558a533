/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The Chakra trace reader: framing, node types, attributes, dependencies, the matching of
// messages and collectives, and what it refuses (naming the file, the node and the rank).

#include "ns3/chakra-trace.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

using ns3::ChakraTrace;
using K = ChakraTrace::Kind;

namespace
{

/// A scratch directory, removed with its files.
class ChakraTraceTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        char dir[] = "/tmp/reps-chakra-gtest-XXXXXX";
        ASSERT_NE(mkdtemp(dir), nullptr);
        m_dir = dir;
    }

    void TearDown() override
    {
        for (const std::string& f : m_files)
        {
            std::remove(f.c_str());
        }
        rmdir(m_dir.c_str());
    }

    /// \return the path of file \p name in the scratch directory.
    std::string Path(const std::string& name)
    {
        m_files.push_back(m_dir + "/" + name);
        return m_files.back();
    }

    /// Write \p bytes to file \p name; \return its path.
    std::string Raw(const std::string& name, const std::string& bytes)
    {
        std::string path = Path(name);
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }

    /// Write every rank with ChakraTrace::WriteFile; \return the prefix.
    std::string Write(const std::vector<std::vector<ChakraTrace::Node>>& ranks)
    {
        for (size_t r = 0; r < ranks.size(); ++r)
        {
            EXPECT_EQ(ChakraTrace::WriteFile(Path("t." + std::to_string(r) + ".et"), ranks[r]), "");
        }
        return m_dir + "/t";
    }

    std::string m_dir;                //!< The directory.
    std::vector<std::string> m_files; //!< Its files.
};

ChakraTrace::Node
Node(uint64_t id, K kind, std::vector<uint64_t> deps = {})
{
    ChakraTrace::Node n;
    n.id = id;
    n.name = "n" + std::to_string(id);
    n.kind = kind;
    n.dataDeps = deps;
    n.durationMicros = 3;
    return n;
}

ChakraTrace::Node
Msg(uint64_t id, K kind, uint32_t peer, uint64_t tag, uint64_t bytes = 100)
{
    ChakraTrace::Node n = Node(id, kind);
    n.peer = peer;
    n.tag = tag;
    n.bytes = kind == K::SEND ? bytes : 0;
    return n;
}

ChakraTrace::Node
Coll(uint64_t id, ChakraTrace::Collective c, uint64_t bytes, const std::string& group = "")
{
    ChakraTrace::Node n = Node(id, K::COLLECTIVE);
    n.collective = c;
    n.bytes = bytes;
    n.group = group;
    return n;
}

/// A framed message: its length as a varint (short messages: one byte), then it.
std::string
Framed(const std::string& message)
{
    return std::string(1, static_cast<char>(message.size())) + message;
}

/// A Node message by hand: id (field 1), name (2), type (3), data_deps (5).
std::string
RawNode(uint8_t id, const std::string& name, uint8_t type)
{
    return std::string{0x08, static_cast<char>(id), 0x12, static_cast<char>(name.size())} + name +
           std::string{0x18, static_cast<char>(type)};
}

} // namespace

TEST_F(ChakraTraceTest, ReadsWhatItWritesWithAttributesAndOrder)
{
    ChakraTrace::Node late = Node(7, K::COMPUTE);
    late.cpu = true;
    late.iteration = 2;
    late.ctrlDeps = {9};
    std::string prefix = Write({{late, Node(9, K::MEMORY), Msg(4, K::SEND, 1, 11, 4096)},
                                {Msg(1, K::RECV, 0, 11), Node(2, K::METADATA, {1})}});
    ChakraTrace t;
    std::string error;
    ASSERT_TRUE(t.Load(prefix, error)) << error;
    ASSERT_EQ(t.GetRanks(), 2u);
    const auto& n = t.GetNodes(0);
    ASSERT_EQ(n.size(), 3u);
    EXPECT_EQ(n[0].kind, K::COMPUTE);
    EXPECT_EQ(n[0].durationMicros, 3u);
    EXPECT_TRUE(n[0].cpu);
    EXPECT_EQ(n[0].iteration, 2u);
    EXPECT_EQ(n[1].kind, K::MEMORY);
    EXPECT_EQ(t.GetIterations(), 3u);
    // Node 7 waits for node 9 (control dependency): 9 comes first in the order.
    EXPECT_EQ(n[0].deps, std::vector<uint32_t>{1});
    EXPECT_EQ(t.GetOrder(0), (std::vector<uint32_t>{1, 0, 2}));
    ASSERT_EQ(t.GetMessages().size(), 1u);
    EXPECT_EQ(t.GetMessages()[0].bytes, 4096u);
    EXPECT_EQ(t.GetMessages()[0].recv, 0u);
    EXPECT_EQ(t.GetNodes(1)[1].deps, std::vector<uint32_t>{0});
    EXPECT_EQ(t.CheckHosts(2), "");
    EXPECT_NE(t.CheckHosts(1).find("allowed: a trace of 2 to 1 ranks"), std::string::npos);
}

TEST_F(ChakraTraceTest, MatchesMessagesByTagAndCollectivesByGroup)
{
    using C = ChakraTrace::Collective;
    std::vector<std::vector<ChakraTrace::Node>> ranks(4);
    ranks[0] = {Msg(0, K::SEND, 1, 5, 10),
                Msg(1, K::SEND, 1, 6, 20),
                Coll(2, C::ALL_TO_ALL, 64, "ep0"),
                Coll(3, C::ALL_REDUCE, 400)};
    ranks[1] = {Msg(0, K::RECV, 0, 6),
                Msg(1, K::RECV, 0, 5),
                Coll(2, C::ALL_TO_ALL, 64, "ep0"),
                Coll(3, C::ALL_REDUCE, 400)};
    ranks[2] = {Coll(0, C::ALL_REDUCE, 400), Coll(1, C::BROADCAST, 8, "ep1")};
    ranks[3] = {Coll(0, C::BROADCAST, 8, "ep1"), Coll(1, C::ALL_REDUCE, 400)};
    ranks[3][0].root = 3;
    ranks[2][1].root = 3;
    ChakraTrace t;
    std::string error;
    ASSERT_TRUE(t.Load(Write(ranks), error)) << error;
    // By tag: rank 0's first send (tag 5) is rank 1's second receive.
    ASSERT_EQ(t.GetMessages().size(), 2u);
    for (const ChakraTrace::Message& m : t.GetMessages())
    {
        EXPECT_EQ(t.GetNodes(1)[m.recv].tag, m.tag);
        EXPECT_EQ(m.send, m.tag == 5 ? 0u : 1u);
        EXPECT_EQ(m.recv, m.tag == 5 ? 1u : 0u);
    }
    // Groups no rank declares are the ranks that use them; no name is every rank.
    EXPECT_EQ(t.GetGroups().at("ep0"), (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(t.GetGroups().at("ep1"), (std::vector<uint32_t>{2, 3}));
    ASSERT_EQ(t.GetCalls().size(), 3u);
    for (const ChakraTrace::Call& c : t.GetCalls())
    {
        EXPECT_EQ(c.ranks.size(), c.group.empty() ? 4u : 2u);
        if (c.collective == C::BROADCAST)
        {
            EXPECT_EQ(c.root, 1u) << "rank 3 is the second of ep1";
        }
    }
}

TEST_F(ChakraTraceTest, DeclaredProcessGroups)
{
    using C = ChakraTrace::Collective;
    std::vector<std::vector<ChakraTrace::Node>> ranks(3, {Coll(0, C::ALL_REDUCE, 30, "g")});
    ranks[1] = {};
    std::map<std::string, std::vector<uint32_t>> groups{{"g", {2, 0}}};
    for (size_t r = 0; r < ranks.size(); ++r)
    {
        ASSERT_EQ(ChakraTrace::WriteFile(Path("g." + std::to_string(r) + ".et"), ranks[r], groups),
                  "");
    }
    ChakraTrace t;
    std::string error;
    ASSERT_TRUE(t.Load(m_dir + "/g", error)) << error;
    ASSERT_EQ(t.GetCalls().size(), 1u);
    EXPECT_EQ(t.GetCalls()[0].ranks, (std::vector<uint32_t>{2, 0})) << "the declared order";
}

TEST_F(ChakraTraceTest, HandWrittenFraming)
{
    // An empty GlobalMetadata (length 0), then a compute node; on two ranks.
    std::string file = Framed("") + Framed(RawNode(5, "x", 4));
    Raw("h.0.et", file);
    Raw("h.1.et", file);
    ChakraTrace t;
    std::string error;
    ASSERT_TRUE(t.Load(m_dir + "/h", error)) << error;
    ASSERT_EQ(t.GetNodes(1).size(), 1u);
    EXPECT_EQ(t.GetNodes(1)[0].id, 5u);
    EXPECT_EQ(t.GetNodes(1)[0].name, "x");
    EXPECT_EQ(t.GetNodes(1)[0].kind, K::COMPUTE);
}

TEST_F(ChakraTraceTest, RefusesUnknownNodeTypeNamingNodeAndRank)
{
    Raw("u.0.et", Framed("") + Framed(RawNode(5, "x", 4)));
    Raw("u.1.et", Framed("") + Framed(RawNode(5, "x", 4)) + Framed(RawNode(6, "odd", 42)));
    ChakraTrace t;
    std::string error;
    EXPECT_FALSE(t.Load(m_dir + "/u", error));
    EXPECT_NE(error.find("u.1.et: node 6 'odd' of rank 1 has an unknown node type 42; allowed:"),
              std::string::npos)
        << error;
    EXPECT_EQ(t.GetRanks(), 0u) << "keeps what it held";
}

TEST_F(ChakraTraceTest, RefusesTruncatedAndMissingFiles)
{
    std::string node = RawNode(5, "x", 4);
    Raw("c.0.et", Framed("") + Framed(node).substr(0, node.size()));
    Raw("c.1.et", Framed("") + Framed(node));
    ChakraTrace t;
    std::string error;
    EXPECT_FALSE(t.Load(m_dir + "/c", error));
    EXPECT_NE(error.find("c.0.et: message 1 (byte 1) is truncated"), std::string::npos) << error;
    EXPECT_FALSE(t.Load(m_dir + "/none", error));
    EXPECT_NE(error.find("none.0.et: cannot read"), std::string::npos) << error;
    Raw("e.0.et", "");
    EXPECT_FALSE(t.Load(m_dir + "/e", error));
    EXPECT_NE(error.find("e.0.et: empty"), std::string::npos) << error;
}

TEST_F(ChakraTraceTest, RefusesBadDependencies)
{
    ChakraTrace t;
    std::string error;
    EXPECT_FALSE(t.Load(Write({{Node(0, K::COMPUTE, {8})}, {Node(0, K::COMPUTE)}}), error));
    EXPECT_NE(error.find("node 0 'n0' of rank 0 depends on node 8, which rank 0 does not have"),
              std::string::npos)
        << error;
    EXPECT_FALSE(
        t.Load(Write({{Node(0, K::COMPUTE)}, {Node(0, K::COMPUTE, {1}), Node(1, K::COMPUTE, {0})}}),
               error));
    EXPECT_NE(error.find("of rank 1 is on or behind a dependency cycle"), std::string::npos)
        << error;
    EXPECT_FALSE(t.Load(Write({{Node(0, K::COMPUTE), Node(0, K::COMPUTE)}, {}}), error));
    EXPECT_NE(error.find("has the id of an earlier node"), std::string::npos) << error;
}

TEST_F(ChakraTraceTest, RefusesUnmatchedAndDeadlockedCommunication)
{
    using C = ChakraTrace::Collective;
    ChakraTrace t;
    std::string error;
    EXPECT_FALSE(t.Load(Write({{Msg(0, K::SEND, 1, 4)}, {Msg(0, K::RECV, 0, 5)}}), error));
    EXPECT_NE(error.find("node 0 'n0' of rank 0 sends to rank 1 with tag 4, and rank 1 has no "
                         "receive left"),
              std::string::npos)
        << error;
    EXPECT_FALSE(t.Load(Write({{Msg(0, K::SEND, 3, 4)}, {}}), error));
    EXPECT_NE(error.find("has peer rank 3; allowed: another rank in [0, 1]"), std::string::npos);
    // Each rank receives before it sends: neither can start its send.
    ChakraTrace::Node after = Msg(1, K::SEND, 1, 2);
    after.dataDeps = {0};
    ChakraTrace::Node after1 = Msg(1, K::SEND, 0, 1);
    after1.dataDeps = {0};
    EXPECT_FALSE(
        t.Load(Write({{Msg(0, K::RECV, 1, 1), after}, {Msg(0, K::RECV, 0, 2), after1}}), error));
    EXPECT_NE(error.find("the trace cannot finish"), std::string::npos) << error;
    // The ranks disagree on the collective's size; and on the number of collectives.
    EXPECT_FALSE(t.Load(Write({{Coll(0, C::ALL_REDUCE, 8)}, {Coll(0, C::ALL_REDUCE, 16)}}), error));
    EXPECT_NE(error.find("node 0 'n0' of rank 1 is collective 1 of process group ''"),
              std::string::npos)
        << error;
    EXPECT_FALSE(t.Load(Write({{Coll(0, C::ALL_REDUCE, 8), Coll(1, C::ALL_REDUCE, 8)},
                               {Coll(0, C::ALL_REDUCE, 8)}}),
                        error));
    EXPECT_NE(error.find("which rank 1 never runs"), std::string::npos) << error;
    // A comm_type that is not Chakra's is named with what is allowed.
    ChakraTrace::Node odd = Coll(0, C::ALL_REDUCE, 8);
    odd.collective = static_cast<C>(10);
    EXPECT_FALSE(t.Load(Write({{odd}, {odd}}), error));
    EXPECT_NE(error.find("node 0 'n0' of rank 0 is a collective of comm_type 10, which is not "
                         "one of Chakra's; allowed: 0 (ALL_REDUCE) to 9 (BARRIER)"),
              std::string::npos)
        << error;
    // A collective needs a size; a barrier does not.
    EXPECT_FALSE(t.Load(Write({{Coll(0, C::GATHER, 0)}, {Coll(0, C::GATHER, 0)}}), error));
    EXPECT_NE(error.find("has no comm_size"), std::string::npos) << error;
    EXPECT_TRUE(t.Load(Write({{Coll(0, C::BARRIER, 0)}, {Coll(0, C::BARRIER, 0)}}), error))
        << error;
    EXPECT_EQ(ChakraTrace::CollectiveName(C::BARRIER), "barrier");
}

TEST_F(ChakraTraceTest, ReadsEveryCollectiveTypeWithItsRoot)
{
    using C = ChakraTrace::Collective;
    // Chakra's ten comm_types, the rooted ones with root rank 1 (comm_src).
    std::vector<std::vector<ChakraTrace::Node>> ranks(2);
    for (int c = 0; c <= 9; ++c)
    {
        for (auto& nodes : ranks)
        {
            nodes.push_back(Coll(c, static_cast<C>(c), 64));
            nodes.back().root = 1;
        }
    }
    ChakraTrace t;
    std::string error;
    ASSERT_TRUE(t.Load(Write(ranks), error)) << error;
    ASSERT_EQ(t.GetCalls().size(), 10U);
    for (int c = 0; c <= 9; ++c)
    {
        EXPECT_EQ(t.GetCalls()[c].collective, static_cast<C>(c));
        EXPECT_EQ(t.GetCalls()[c].root, 1U);
        EXPECT_NE(ChakraTrace::CollectiveName(static_cast<C>(c)), "");
    }
    EXPECT_EQ(ChakraTrace::CollectiveName(C::REDUCE), "reduce");
    EXPECT_EQ(ChakraTrace::CollectiveName(C::GATHER), "gather");
    EXPECT_EQ(ChakraTrace::CollectiveName(C::SCATTER), "scatter");
}
