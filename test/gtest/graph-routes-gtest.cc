/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the equal-cost next hops over any wiring (GraphRoutes, Boost.Graph): on a
// 2-tier Clos the sets are those of ClosRoutes; on a rail-only wiring (servers of 2 GPUs, one
// rail leaf per GPU index, no spines, a scale-up switch per server) a GPU relays a peer's
// packets across rails, and the sets are the hand-computed ones; failures and refusals.

#include "ns3/clos-routes.h"
#include "ns3/graph-routes.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using ns3::ClosRoutes;
using ns3::GraphRoutes;

namespace
{

using Ports = std::vector<uint32_t>;

/// Both tables wired link by link, each node numbering its ports 0, 1, ...
class Wiring
{
  public:
    /**
     * \param nHosts number of hosts
     * \param nSwitches number of switches
     */
    Wiring(uint32_t nHosts, uint32_t nSwitches)
        : graph(nHosts, nSwitches),
          m_nextPort(nHosts + nSwitches, 0)
    {
    }

    /**
     * Link two nodes on their next free ports.
     * \param a a node
     * \param b another node
     * \return the link
     */
    uint32_t Link(uint32_t a, uint32_t b)
    {
        return graph.AddLink(a, m_nextPort[a]++, b, m_nextPort[b]++);
    }

    GraphRoutes graph; //!< The tables under test.

  private:
    std::vector<uint32_t> m_nextPort; //!< Next free port of every node.
};

/*
 * Rail-only, 2 servers of 2 GPUs: host h = GPU h % 2 of server h / 2 (hosts 0 .. 3), rail
 * leaves 4 (GPU 0 of every server) and 5 (GPU 1), scale-up switches 6 (server 0) and 7
 * (server 1). A GPU's port 0 is its rail NIC, port 1 its scale-up device. Leaf ports: the
 * servers in order; scale-up switch ports: the GPUs in order.
 */
Wiring
RailOnly(bool relays)
{
    Wiring w(4, 4);
    for (uint32_t h = 0; h < 4; ++h)
    {
        w.Link(h, 4 + h % 2); // rail
    }
    for (uint32_t h = 0; h < 4; ++h)
    {
        w.Link(h, 6 + h / 2); // scale-up
    }
    for (uint32_t h = 0; h < 4; ++h)
    {
        w.graph.SetRelay(h, relays);
    }
    return w;
}

} // namespace

TEST(GraphRoutes, ClosSetsAreThoseOfClosRoutes)
{
    // 4 hosts on 2 leaves (4, 5), 2 spines (6, 7), 2 parallel links leaf-spine.
    Wiring w(4, 4);
    ClosRoutes clos(4, 4);
    std::vector<uint32_t> next(8, 0);
    auto link = [&](uint32_t a, uint32_t b) {
        const uint32_t pa = next[a]++;
        const uint32_t pb = next[b]++;
        w.graph.AddLink(a, pa, b, pb);
        clos.AddLink(a, a < 4 ? ClosRoutes::NO_PORT : pa, b, b < 4 ? ClosRoutes::NO_PORT : pb);
    };
    for (uint32_t h = 0; h < 4; ++h)
    {
        link(h, 4 + h / 2);
    }
    for (uint32_t leaf = 4; leaf < 6; ++leaf)
    {
        for (uint32_t spine = 6; spine < 8; ++spine)
        {
            link(leaf, spine);
            link(leaf, spine);
        }
    }
    EXPECT_EQ(w.graph.Compute(), 0u);
    clos.Compute();
    for (uint32_t sw = 4; sw < 8; ++sw)
    {
        for (uint32_t h = 0; h < 4; ++h)
        {
            EXPECT_EQ(w.graph.GetPorts(sw, h), clos.GetPorts(sw, h))
                << "switch " << sw << ", host " << h;
        }
    }
    EXPECT_EQ(w.graph.GetPorts(4, 2), (Ports{2, 3, 4, 5})) << "leaf 0 toward leaf 1: 4 up-links";
    EXPECT_EQ(w.graph.GetDistance(0, 3), 4u);
    EXPECT_EQ(w.graph.GetPorts(0, 3), (Ports{0})) << "a host has one port";
}

TEST(GraphRoutes, RailOnlyRelaysAcrossRails)
{
    Wiring w = RailOnly(true);
    EXPECT_EQ(w.graph.Compute(), 0u);
    // Same server: over the scale-up switch only.
    EXPECT_EQ(w.graph.GetPorts(0, 1), (Ports{1}));
    EXPECT_EQ(w.graph.GetDistance(0, 1), 2u);
    // Same rail, other server: over the rail leaf only.
    EXPECT_EQ(w.graph.GetPorts(0, 2), (Ports{0}));
    EXPECT_EQ(w.graph.GetDistance(0, 2), 2u);
    // Other rail, other server: through a peer GPU, first over the rail (then host 2 relays
    // over server 1's scale-up) or first over the scale-up (host 1 relays onto rail 1).
    EXPECT_EQ(w.graph.GetDistance(0, 3), 4u);
    EXPECT_EQ(w.graph.GetPorts(0, 3), (Ports{0, 1}));
    EXPECT_EQ(w.graph.GetPorts(1, 3), (Ports{0})) << "host 1 relays onto rail 1";
    EXPECT_EQ(w.graph.GetPorts(2, 3), (Ports{1})) << "host 2 relays over server 1's scale-up";
    EXPECT_EQ(w.graph.GetPorts(4, 3), (Ports{1})) << "rail leaf 0 hands it to host 2";
    EXPECT_EQ(w.graph.GetPorts(5, 3), (Ports{1})) << "rail leaf 1: its port to host 3";
    EXPECT_EQ(w.graph.GetPorts(6, 3), (Ports{1})) << "server 0's switch hands it to host 1";
    EXPECT_EQ(w.graph.GetPorts(7, 3), (Ports{1})) << "server 1's switch: its port to host 3";
    EXPECT_TRUE(w.graph.GetPorts(3, 3).empty()) << "nothing toward itself";
    EXPECT_EQ(w.graph.GetDistance(3, 3), 0u);
}

TEST(GraphRoutes, WithoutRelaysCrossRailIsUnreachable)
{
    Wiring w = RailOnly(false);
    // From every node to host 3: host 0 and rail leaf 0 and server 0's switch have no way
    // that does not pass through a GPU.
    const uint64_t unreachable = w.graph.Compute();
    EXPECT_GT(unreachable, 0u);
    EXPECT_TRUE(w.graph.GetPorts(0, 3).empty());
    EXPECT_EQ(w.graph.GetDistance(0, 3), GraphRoutes::UNREACHABLE);
    EXPECT_EQ(w.graph.GetPorts(0, 1), (Ports{1})) << "the scale-up domain still works";
    EXPECT_EQ(w.graph.GetPorts(0, 2), (Ports{0})) << "and the rail";
}

TEST(GraphRoutes, AFailedLinkLeavesTheSets)
{
    Wiring w = RailOnly(true);
    // Host 0's scale-up link (link 4): cross-rail traffic from host 0 goes over its rail.
    w.graph.SetRouted(4, false);
    EXPECT_FALSE(w.graph.IsComputed());
    w.graph.Compute();
    EXPECT_EQ(w.graph.GetPorts(0, 3), (Ports{0}));
    // Host 0 to host 1 now takes rail 0, host 2, server 1's scale-up, host 3, rail 1.
    EXPECT_EQ(w.graph.GetDistance(0, 1), 6u);
    w.graph.SetRouted(4, true);
    w.graph.Compute();
    EXPECT_EQ(w.graph.GetPorts(0, 3), (Ports{0, 1}));
}

TEST(GraphRoutes, MisuseIsRefused)
{
    GraphRoutes g(2, 1);
    EXPECT_THROW(g.AddLink(0, 0, 0, 1), std::invalid_argument);
    EXPECT_THROW(g.AddLink(0, 0, 3, 0), std::invalid_argument);
    g.AddLink(0, 0, 2, 0);
    EXPECT_THROW(g.AddLink(1, 0, 2, 0), std::invalid_argument) << "port 0 of node 2 is taken";
    EXPECT_NE(g.ValidateLink(1, 0, 2, 0).find("port 0 of node 2"), std::string::npos);
    EXPECT_THROW(g.GetPorts(2, 0), std::logic_error) << "before Compute()";
    g.AddLink(1, 0, 2, 1);
    g.Compute();
    EXPECT_EQ(g.GetPorts(2, 1), (Ports{1}));
    EXPECT_THROW(g.GetPorts(3, 0), std::out_of_range);
    EXPECT_THROW(g.GetPorts(2, 2), std::out_of_range) << "node 2 is not a host";
    EXPECT_THROW(g.SetRelay(2, true), std::out_of_range);
    EXPECT_THROW(g.SetRouted(9, true), std::out_of_range);
}
