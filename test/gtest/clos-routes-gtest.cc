/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the equal-cost next-hop tables (ClosRoutes) on 2-tier and 3-tier wirings
// numbered the way ClosFabricHelper numbers them: hosts, leaves, spines or aggregation
// switches, cores; every switch's ports numbered in the order its links are added.

#include "ns3/clos-routes.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using ns3::ClosRoutes;

namespace
{

using Ports = std::vector<uint32_t>;

/// A ClosRoutes wired link by link, each switch numbering its ports 0, 1, ...
class Wiring
{
  public:
    /**
     * \param nHosts number of hosts
     * \param nSwitches number of switches
     */
    Wiring(uint32_t nHosts, uint32_t nSwitches)
        : routes(nHosts, nSwitches),
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
        uint32_t pa = Port(a);
        uint32_t pb = Port(b);
        return routes.AddLink(a, pa, b, pb);
    }

    ClosRoutes routes; //!< The tables under test.

  private:
    /// \param n a node \return its next port (NO_PORT for a host)
    uint32_t Port(uint32_t n)
    {
        return n < routes.GetNHosts() ? ClosRoutes::NO_PORT : m_nextPort[n]++;
    }

    std::vector<uint32_t> m_nextPort; //!< Next free port of every node.
};

/// A 2-tier shape: L leaves of H hosts, S spines, P parallel links.
struct TwoTier
{
    uint32_t L; //!< Leaves.
    uint32_t H; //!< Hosts per leaf.
    uint32_t S; //!< Spines.
    uint32_t P; //!< Parallel links.

    /// \param l a leaf \return its node
    uint32_t Leaf(uint32_t l) const
    {
        return L * H + l;
    }

    /// \param s a spine \return its node
    uint32_t Spine(uint32_t s) const
    {
        return L * H + L + s;
    }

    /// \return the wiring: host links, then leaf-spine links leaf by leaf
    Wiring Wire() const
    {
        Wiring w(L * H, L + S);
        for (uint32_t h = 0; h < L * H; h++)
        {
            w.Link(h, Leaf(h / H));
        }
        for (uint32_t l = 0; l < L; l++)
        {
            for (uint32_t s = 0; s < S; s++)
            {
                for (uint32_t k = 0; k < P; k++)
                {
                    w.Link(Leaf(l), Spine(s));
                }
            }
        }
        return w;
    }
};

/// A 3-tier shape: Pods pods of LP leaves (H hosts each) and A aggregation switches, C cores.
struct ThreeTier
{
    uint32_t Pods; //!< Pods.
    uint32_t LP;   //!< Leaves per pod.
    uint32_t H;    //!< Hosts per leaf.
    uint32_t A;    //!< Aggregation switches per pod.
    uint32_t C;    //!< Cores (a multiple of A).

    /// \return the number of hosts
    uint32_t Hosts() const
    {
        return Pods * LP * H;
    }

    /// \param l a global leaf number \return its node
    uint32_t Leaf(uint32_t l) const
    {
        return Hosts() + l;
    }

    /// \param p a pod \param a an aggregation switch of it \return its node
    uint32_t Agg(uint32_t p, uint32_t a) const
    {
        return Hosts() + Pods * LP + p * A + a;
    }

    /// \param c a core \return its node
    uint32_t Core(uint32_t c) const
    {
        return Hosts() + Pods * LP + Pods * A + c;
    }

    /// \return the wiring: host, leaf-agg, agg-core links (agg i to cores of group i)
    Wiring Wire() const
    {
        Wiring w(Hosts(), Pods * LP + Pods * A + C);
        for (uint32_t h = 0; h < Hosts(); h++)
        {
            w.Link(h, Leaf(h / H));
        }
        for (uint32_t l = 0; l < Pods * LP; l++)
        {
            for (uint32_t a = 0; a < A; a++)
            {
                w.Link(Leaf(l), Agg(l / LP, a));
            }
        }
        for (uint32_t p = 0; p < Pods; p++)
        {
            for (uint32_t a = 0; a < A; a++)
            {
                for (uint32_t c = 0; c < C / A; c++)
                {
                    w.Link(Agg(p, a), Core(a * (C / A) + c));
                }
            }
        }
        return w;
    }
};

/// Every (switch, host) set of a computed ClosRoutes: [switch - nHosts][host].
std::vector<std::vector<Ports>>
Tables(const ClosRoutes& r)
{
    std::vector<std::vector<Ports>> t;
    for (uint32_t s = r.GetNHosts(); s < r.GetNNodes(); s++)
    {
        t.emplace_back();
        for (uint32_t h = 0; h < r.GetNHosts(); h++)
        {
            t.back().push_back(r.GetPorts(s, h));
        }
    }
    return t;
}

TEST(ClosRoutes, TwoTierTables)
{
    const TwoTier shape{3, 2, 4, 1};
    Wiring w = shape.Wire();
    EXPECT_EQ(w.routes.Compute(), 0u);
    const uint32_t leaf0 = shape.Leaf(0);
    // A leaf reaches its own hosts over their host links (ports 0 and 1) ...
    EXPECT_EQ(w.routes.GetPorts(leaf0, 0), Ports({0}));
    EXPECT_EQ(w.routes.GetPorts(leaf0, 1), Ports({1}));
    // ... and every other host over all its spine ports, in port order.
    for (uint32_t h = 2; h < 6; h++)
    {
        EXPECT_EQ(w.routes.GetPorts(leaf0, h), Ports({2, 3, 4, 5})) << "host " << h;
    }
    // A spine has one port toward each leaf (port l for leaf l).
    for (uint32_t s = 0; s < shape.S; s++)
    {
        for (uint32_t h = 0; h < 6; h++)
        {
            EXPECT_EQ(w.routes.GetPorts(shape.Spine(s), h), Ports({h / 2}));
        }
    }
    // One set per leaf, plus one per own host at a leaf.
    EXPECT_EQ(w.routes.GetSets(leaf0).size(), 3u + 2u);
    EXPECT_EQ(w.routes.GetSets(shape.Spine(0)).size(), 3u);
    EXPECT_EQ(w.routes.GetHostToSet(leaf0), Ports({3, 4, 1, 1, 2, 2}));
}

TEST(ClosRoutes, ThreeTierTables)
{
    // 2 pods of 2 leaves (2 hosts each) and 2 aggregation switches, 4 cores (2 per group).
    const ThreeTier t{2, 2, 2, 2, 4};
    Wiring w = t.Wire();
    EXPECT_EQ(w.routes.Compute(), 0u);
    // Leaf 0 (pod 0): host ports 0, 1; agg ports 2, 3.
    EXPECT_EQ(w.routes.GetPorts(t.Leaf(0), 1), Ports({1}));
    EXPECT_EQ(w.routes.GetPorts(t.Leaf(0), 2), Ports({2, 3})) << "same pod, other leaf";
    EXPECT_EQ(w.routes.GetPorts(t.Leaf(0), 7), Ports({2, 3})) << "other pod";
    // Agg 0.0: leaf ports 0, 1; core ports 2, 3.
    EXPECT_EQ(w.routes.GetPorts(t.Agg(0, 0), 0), Ports({0}));
    EXPECT_EQ(w.routes.GetPorts(t.Agg(0, 0), 3), Ports({1}));
    EXPECT_EQ(w.routes.GetPorts(t.Agg(0, 0), 4), Ports({2, 3})) << "up to both cores";
    // Core 3 (group 1) has one port per pod: to agg 0.1 (port 0) and agg 1.1 (port 1).
    for (uint32_t h = 0; h < t.Hosts(); h++)
    {
        EXPECT_EQ(w.routes.GetPorts(t.Core(3), h), Ports({h / 4})) << "host " << h;
    }
}

TEST(ClosRoutes, ParallelLinksAreSeparatePorts)
{
    const TwoTier shape{2, 1, 2, 3};
    Wiring w = shape.Wire();
    w.routes.Compute();
    // Leaf 0: host port 0; spine 0 on ports 1-3, spine 1 on ports 4-6.
    EXPECT_EQ(w.routes.GetPorts(shape.Leaf(0), 1), Ports({1, 2, 3, 4, 5, 6}));
    // Spine 1: leaf 0 on ports 0-2, leaf 1 on ports 3-5.
    EXPECT_EQ(w.routes.GetPorts(shape.Spine(1), 0), Ports({0, 1, 2}));
    EXPECT_EQ(w.routes.GetPorts(shape.Spine(1), 1), Ports({3, 4, 5}));
    // One parallel link down: only its port leaves the sets.
    w.routes.SetRouted(w.routes.GetNodeLinks(shape.Leaf(0))[2], false); // leaf 0 port 2
    w.routes.Compute();
    EXPECT_EQ(w.routes.GetPorts(shape.Leaf(0), 1), Ports({1, 3, 4, 5, 6}));
    EXPECT_EQ(w.routes.GetPorts(shape.Spine(0), 0), Ports({0, 2}));
    EXPECT_EQ(w.routes.GetPorts(shape.Leaf(1), 0), Ports({1, 2, 3, 4, 5, 6}));
}

TEST(ClosRoutes, FailedLinkLeavesExactlyTheSetsWhosePathsCrossedIt)
{
    const ThreeTier t{2, 2, 1, 2, 4};
    Wiring w = t.Wire();
    w.routes.Compute();
    const auto before = Tables(w.routes);
    // Agg 0.0 - core 0: agg 0.0's port 2 (after its two leaf ports), core 0's port 0.
    const uint32_t failed = w.routes.GetNodeLinks(t.Agg(0, 0))[2];
    ASSERT_EQ(w.routes.GetLink(failed).node[1], t.Core(0));
    w.routes.SetRouted(failed, false);
    EXPECT_FALSE(w.routes.IsRouted(failed));
    EXPECT_EQ(w.routes.Compute(), 0u) << "the fabric stays connected";
    const auto after = Tables(w.routes);
    const uint32_t n = t.Hosts();
    for (uint32_t s = n; s < w.routes.GetNNodes(); s++)
    {
        for (uint32_t h = 0; h < n; h++)
        {
            Ports expected = before[s - n][h];
            const bool otherPod = h / (t.LP * t.H) != 0;
            if (s == t.Agg(0, 0) && otherPod)
            {
                expected = {3}; // core 1 only
            }
            else if (s == t.Agg(1, 0) && !otherPod)
            {
                expected = {3}; // core 1 only: core 0 no longer leads to pod 0 directly
            }
            else if (s == t.Core(0) && !otherPod)
            {
                expected = {1}; // the long way, through pod 1
            }
            EXPECT_EQ(after[s - n][h], expected) << "switch " << s << " host " << h;
        }
    }
    // Back up: the tables are those of the intact fabric again.
    w.routes.SetRouted(failed, true);
    w.routes.Compute();
    EXPECT_EQ(Tables(w.routes), before);
}

TEST(ClosRoutes, LeafCutOffFromOneSpine)
{
    const TwoTier shape{3, 1, 3, 2};
    Wiring w = shape.Wire();
    // Both parallel links of leaf 0 to spine 1 (leaf ports 3 and 4).
    const std::vector<uint32_t>& leafLinks = w.routes.GetNodeLinks(shape.Leaf(0));
    w.routes.SetRouted(leafLinks[3], false);
    w.routes.SetRouted(leafLinks[4], false);
    EXPECT_EQ(w.routes.Compute(), 0u);
    EXPECT_EQ(w.routes.GetPorts(shape.Leaf(0), 1), Ports({1, 2, 5, 6})) << "spines 0 and 2";
    EXPECT_EQ(w.routes.GetPorts(shape.Leaf(1), 0), Ports({1, 2, 5, 6})) << "not via spine 1";
    EXPECT_EQ(w.routes.GetPorts(shape.Leaf(1), 2), Ports({1, 2, 3, 4, 5, 6})) << "untouched";
    // Spine 1 still reaches leaf 0 over another leaf (ports 2-5: leaves 1 and 2).
    EXPECT_EQ(w.routes.GetPorts(shape.Spine(1), 0), Ports({2, 3, 4, 5}));
}

TEST(ClosRoutes, UnreachableHostsHaveEmptySets)
{
    const TwoTier shape{2, 2, 2, 1};
    Wiring w = shape.Wire();
    // Leaf 1 loses both spines: its hosts (2, 3) and the others are cut apart.
    const std::vector<uint32_t>& leafLinks = w.routes.GetNodeLinks(shape.Leaf(1));
    w.routes.SetRouted(leafLinks[2], false);
    w.routes.SetRouted(leafLinks[3], false);
    // 2 spines x 2 hosts + leaf 0 x 2 hosts + leaf 1 x 2 hosts.
    EXPECT_EQ(w.routes.Compute(), 8u);
    EXPECT_TRUE(w.routes.GetPorts(shape.Leaf(0), 2).empty());
    EXPECT_TRUE(w.routes.GetPorts(shape.Spine(0), 3).empty());
    EXPECT_TRUE(w.routes.GetPorts(shape.Leaf(1), 0).empty());
    EXPECT_EQ(w.routes.GetPorts(shape.Leaf(1), 3), Ports({1})) << "own hosts still reached";

    // A host link down: only the leaf loses the host; the others still route to the leaf.
    Wiring v = shape.Wire();
    v.routes.SetRouted(v.routes.GetNodeLinks(1).front(), false);
    EXPECT_EQ(v.routes.Compute(), 1u);
    EXPECT_TRUE(v.routes.GetPorts(shape.Leaf(0), 1).empty());
    EXPECT_EQ(v.routes.GetPorts(shape.Leaf(1), 1), Ports({2, 3}));

    // A host without a link is unreachable from every switch.
    Wiring u(3, 1);
    u.Link(0, 3);
    u.Link(1, 3);
    EXPECT_EQ(u.routes.Compute(), 1u);
    EXPECT_EQ(u.routes.GetPorts(3, 1), Ports({1}));
    EXPECT_TRUE(u.routes.GetPorts(3, 2).empty());
}

TEST(ClosRoutes, PortsFollowTheOrderLinksWereAdded)
{
    // Ports numbered against the order of the links: the sets keep the order of the links.
    ClosRoutes r(2, 4); // hosts 0, 1; leaves 2, 3; spines 4, 5
    r.AddLink(0, ClosRoutes::NO_PORT, 2, 9);
    r.AddLink(1, ClosRoutes::NO_PORT, 3, 9);
    r.AddLink(2, 7, 5, 0);
    r.AddLink(2, 3, 4, 0);
    r.AddLink(3, 1, 4, 1);
    r.AddLink(3, 5, 5, 1);
    r.Compute();
    EXPECT_EQ(r.GetPorts(2, 1), Ports({7, 3}));
    EXPECT_EQ(r.GetPorts(3, 0), Ports({1, 5}));
    EXPECT_EQ(r.GetPorts(2, 0), Ports({9}));

    // The same wiring gives the same tables, every time.
    const TwoTier shape{4, 2, 3, 2};
    Wiring a = shape.Wire();
    Wiring b = shape.Wire();
    a.routes.Compute();
    b.routes.Compute();
    b.routes.Compute();
    EXPECT_EQ(Tables(a.routes), Tables(b.routes));
    for (uint32_t s = a.routes.GetNHosts(); s < a.routes.GetNNodes(); s++)
    {
        EXPECT_EQ(a.routes.GetSets(s), b.routes.GetSets(s));
        EXPECT_EQ(a.routes.GetHostToSet(s), b.routes.GetHostToSet(s));
    }
}

TEST(ClosRoutes, RefusesInconsistentLinks)
{
    ClosRoutes r(2, 2); // hosts 0, 1; switches 2, 3
    EXPECT_NE(r.ValidateLink(0, ClosRoutes::NO_PORT, 4, 0).find("node 4"), std::string::npos);
    EXPECT_NE(r.ValidateLink(0, 0, 2, 0).find("host 0"), std::string::npos);
    EXPECT_NE(r.ValidateLink(2, ClosRoutes::NO_PORT, 3, 0).find("switch 2"), std::string::npos);
    EXPECT_NE(r.ValidateLink(0, ClosRoutes::NO_PORT, 1, ClosRoutes::NO_PORT).find("hosts"),
              std::string::npos);
    EXPECT_NE(r.ValidateLink(2, 0, 2, 1).find("different"), std::string::npos);
    EXPECT_EQ(r.ValidateLink(0, ClosRoutes::NO_PORT, 2, 0), "");
    r.AddLink(0, ClosRoutes::NO_PORT, 2, 0);
    EXPECT_NE(r.ValidateLink(0, ClosRoutes::NO_PORT, 3, 0).find("already has"), std::string::npos);
    EXPECT_NE(r.ValidateLink(2, 0, 3, 0).find("port 0 of switch 2"), std::string::npos);
    EXPECT_THROW(r.AddLink(2, 0, 3, 0), std::invalid_argument);
    EXPECT_EQ(r.GetNLinks(), 1u) << "a refused link is not added";
    EXPECT_THROW(r.GetPorts(2, 0), std::logic_error) << "tables read before Compute()";
    r.Compute();
    EXPECT_THROW(r.GetPorts(0, 0), std::out_of_range) << "a host has no table";
    EXPECT_THROW(r.GetPorts(2, 2), std::out_of_range) << "no such host";
    EXPECT_THROW(r.SetRouted(1, false), std::out_of_range) << "no such link";
}

} // namespace
