/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FlowTrace: htsim's connection matrices (.cm files).
 */

#include "flow-trace.h"

#include <deque>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{

/// What the reader keeps while it goes through a matrix.
struct MatrixReader
{
    uint32_t hosts{0};                         //!< Hosts of the fabric.
    uint64_t nodes{0};                         //!< The Nodes line (0: not seen yet).
    int64_t connections{-1};                   //!< The Connections line (-1: none).
    int64_t triggerCount{-1};                  //!< The Triggers line (-1: none).
    uint32_t connectionsLine{0};               //!< Line of the Connections header.
    uint32_t triggersLine{0};                  //!< Line of the Triggers header.
    std::vector<FlowTrace::Flow> flows;        //!< The flows so far.
    std::vector<FlowTrace::Trigger> triggers;  //!< The triggers so far.
    std::map<uint64_t, uint32_t> triggerIndex; //!< Trigger id -> index.
    std::map<uint64_t, uint32_t> flowIds;      //!< Connection id -> flow.
    std::vector<bool> triggerDeclared;         //!< Whether a trigger line was read.
    std::vector<uint32_t> triggerLine;         //!< Line that first named each trigger.
    std::string field;                         //!< The field at fault.
    uint64_t startPs{1};                       //!< Picoseconds per unit of a start time.

    /**
     * \param id a trigger id of the matrix
     * \param line where it is named
     * \return its index (created when new)
     */
    uint32_t TriggerOf(uint64_t id, uint32_t line)
    {
        auto it = triggerIndex.find(id);
        if (it != triggerIndex.end())
        {
            return it->second;
        }
        const auto index = static_cast<uint32_t>(triggers.size());
        FlowTrace::Trigger t;
        t.id = static_cast<uint32_t>(id);
        triggers.push_back(t);
        triggerDeclared.push_back(false);
        triggerLine.push_back(line);
        triggerIndex[id] = index;
        return index;
    }
};

/**
 * \param tok the tokens
 * \param i the index of a keyword; its value is tok[i + 1]
 * \param max largest value allowed
 * \param [out] value the value
 * \param allowed what is allowed, for the message
 * \return an empty string, or what is wrong
 */
std::string
WholeAfter(const std::vector<std::string>& tok,
           size_t i,
           uint64_t max,
           uint64_t& value,
           const std::string& allowed)
{
    if (i + 1 >= tok.size())
    {
        return "no value after '" + tok[i] + "'; allowed: " + allowed;
    }
    if (!FlowTrace::ParseWhole(tok[i + 1], max, value))
    {
        return "'" + tok[i + 1] + "' is not " + allowed;
    }
    return "";
}

/**
 * Parse a header line (Nodes, Connections, Triggers).
 * \param tok its tokens
 * \param r the reader
 * \return an empty string, or what is wrong
 */
std::string
ParseHeader(const std::vector<std::string>& tok, uint32_t line, MatrixReader& r)
{
    r.field = tok[0];
    uint64_t v = 0;
    const std::string& key = tok[0];
    if (key == "Nodes")
    {
        const std::string allowed =
            "a number of hosts in [2, " + std::to_string(r.hosts) + "] (the fabric's hosts)";
        std::string why = WholeAfter(tok, 0, UINT32_MAX, v, allowed);
        if (why.empty() && (v < 2 || v > r.hosts))
        {
            why = std::to_string(v) + " hosts; allowed: " + allowed;
        }
        r.nodes = v;
        return why;
    }
    if (r.nodes == 0)
    {
        return "before the Nodes line; a connection matrix starts with 'Nodes N'";
    }
    std::string why = WholeAfter(tok, 0, FlowTrace::MAX_FLOWS, v, "a count in [0, 10000000]");
    (key == "Connections" ? r.connections : r.triggerCount) = static_cast<int64_t>(v);
    (key == "Connections" ? r.connectionsLine : r.triggersLine) = line;
    return why;
}

/**
 * Parse a trigger line: trigger id G oneshot|multishot|barrier count C.
 * \param tok its tokens
 * \param line its line number
 * \param r the reader
 * \return an empty string, or what is wrong
 */
std::string
ParseTriggerLine(const std::vector<std::string>& tok, uint32_t line, MatrixReader& r)
{
    uint64_t id = 0;
    uint64_t count = 0;
    int kind = -1;
    for (size_t i = 1; i < tok.size(); ++i)
    {
        r.field = tok[i];
        std::string why;
        if (tok[i] == "id" || tok[i] == "count")
        {
            uint64_t& v = tok[i] == "id" ? id : count;
            why = WholeAfter(tok, i++, UINT32_MAX, v, "a whole number > 0");
            why = why.empty() && v == 0 ? "0; allowed: a whole number > 0" : why;
        }
        else if (tok[i] == "oneshot" || tok[i] == "multishot" || tok[i] == "barrier")
        {
            why = kind >= 0 ? "a second kind; allowed: one of oneshot, multishot, barrier" : "";
            kind = tok[i] == "oneshot" ? 0 : (tok[i] == "multishot" ? 1 : 2);
        }
        else
        {
            r.field = "trigger";
            why = "unknown keyword '" + tok[i] +
                  "'; allowed: id G, oneshot, multishot, "
                  "barrier, count C";
        }
        if (!why.empty())
        {
            return why;
        }
    }
    r.field = "trigger";
    if (id == 0 || kind < 0 || (kind == 2) != (count > 0))
    {
        return "expected 'trigger id G oneshot', 'trigger id G multishot' or 'trigger id G "
               "barrier count C'";
    }
    const uint32_t t = r.TriggerOf(id, line);
    if (r.triggerDeclared[t])
    {
        return "trigger " + std::to_string(id) + " is declared twice";
    }
    r.triggerDeclared[t] = true;
    r.triggers[t].kind = static_cast<FlowTrace::Trigger::Kind>(kind);
    r.triggers[t].count = kind == 2 ? static_cast<uint32_t>(count) : 1;
    return "";
}

/**
 * Parse "trigger G" (the flow waits for G) or "send_done_trigger G" (it activates G).
 * \param tok the tokens of the line
 * \param i the index of the keyword
 * \param line the line number
 * \param index the flow's index
 * \param f the flow
 * \param r the reader
 * \return an empty string, or what is wrong
 */
std::string
ParseFlowTrigger(const std::vector<std::string>& tok,
                 size_t i,
                 uint32_t line,
                 uint32_t index,
                 FlowTrace::Flow& f,
                 MatrixReader& r)
{
    uint64_t v = 0;
    std::string why = WholeAfter(tok, i, UINT32_MAX, v, "a trigger id > 0");
    if (!why.empty() || v == 0)
    {
        return why.empty() ? "0; allowed: a trigger id > 0" : why;
    }
    const uint32_t t = r.TriggerOf(v, line);
    if (tok[i] == "trigger")
    {
        f.trigger = t;
        r.triggers[t].targets.push_back(index);
    }
    else
    {
        f.activates = t;
    }
    return "";
}

/**
 * Parse the keywords of a connection line after src->dst.
 * \param tok its tokens
 * \param line its line number
 * \param f the flow (src, dst set)
 * \param r the reader
 * \return an empty string, or what is wrong
 */
std::string
ParseConnectionKeywords(const std::vector<std::string>& tok,
                        uint32_t line,
                        FlowTrace::Flow& f,
                        MatrixReader& r)
{
    bool hasStart = false;
    uint64_t id = 0;
    const auto index = static_cast<uint32_t>(r.flows.size());
    for (size_t i = 1; i < tok.size(); ++i)
    {
        const std::string& key = tok[i];
        r.field = key;
        uint64_t v = 0;
        std::string why;
        if (key == "id")
        {
            why = WholeAfter(tok, i++, UINT32_MAX, id, "a connection id > 0");
            why = why.empty() && id == 0 ? "0; allowed: a connection id > 0" : why;
            why = why.empty() && r.flowIds.count(id)
                      ? "id " + std::to_string(id) + " is used twice; allowed: a new id"
                      : why;
        }
        else if (key == "size")
        {
            why = WholeAfter(tok, i++, FlowTrace::MAX_BYTES, f.bytes, "a size in [1, 1TiB] bytes");
            why = why.empty() && f.bytes == 0 ? "0; allowed: a size in [1, 1TiB] bytes" : why;
        }
        else if (key == "start")
        {
            // The replay's clock counts nanoseconds: the start is rounded to the nearest.
            why = WholeAfter(tok,
                             i++,
                             FlowTrace::MAX_START_NS * 1000 / r.startPs,
                             v,
                             r.startPs == 1 ? "a time in picoseconds, a whole number in [0, 1000s]"
                                            : "a time in microseconds, a whole number in [0, "
                                              "1000s]");
            f.startNs = (v * r.startPs + 500) / 1000;
            hasStart = true;
        }
        else if (key == "trigger" || key == "send_done_trigger")
        {
            why = ParseFlowTrigger(tok, i++, line, index, f, r);
        }
        else if (key == "recv_done_trigger" || key == "msg" || key == "prio")
        {
            why = "'" + key +
                  "' is not modelled by the replay (a flow's completion is its "
                  "sender's; flows are one message each, of one priority)";
        }
        else
        {
            why = "unknown keyword '" + key +
                  "'; allowed: id, start, size, trigger, "
                  "send_done_trigger";
        }
        if (!why.empty())
        {
            return why;
        }
    }
    r.field = "start";
    if (hasStart == (f.trigger != FlowTrace::NONE))
    {
        return hasStart ? "both a start and a trigger; allowed: one of them"
                        : "no start and no trigger; allowed: start T (ps) or trigger G";
    }
    r.field = "size";
    if (f.bytes == 0)
    {
        return "missing; allowed: size B, B in [1, 1TiB]";
    }
    if (id != 0)
    {
        r.flowIds[id] = index;
    }
    return "";
}

/**
 * Parse a connection line: src->dst keywords...
 * \param tok its tokens
 * \param line its line number
 * \param r the reader
 * \return an empty string, or what is wrong
 */
std::string
ParseConnection(const std::vector<std::string>& tok, uint32_t line, MatrixReader& r)
{
    r.field = "src->dst";
    if (r.nodes == 0)
    {
        return "before the Nodes line; a connection matrix starts with 'Nodes N'";
    }
    if (r.flows.size() >= FlowTrace::MAX_FLOWS)
    {
        return "more than " + std::to_string(FlowTrace::MAX_FLOWS) + " flows";
    }
    const size_t arrow = tok[0].find("->");
    uint64_t src = 0;
    uint64_t dst = 0;
    const std::string allowed =
        "; allowed: two different hosts in [0, " + std::to_string(r.nodes - 1) + "]";
    if (!FlowTrace::ParseWhole(tok[0].substr(0, arrow), r.nodes - 1, src) ||
        !FlowTrace::ParseWhole(tok[0].substr(arrow + 2), r.nodes - 1, dst) || src == dst)
    {
        return "'" + tok[0] + "' is not a pair of hosts" + allowed;
    }
    FlowTrace::Flow f;
    f.line = line;
    f.src = static_cast<uint32_t>(src);
    f.dst = static_cast<uint32_t>(dst);
    f.bytes = 0;
    std::string why = ParseConnectionKeywords(tok, line, f, r);
    if (why.empty())
    {
        r.flows.push_back(f);
    }
    return why;
}

/**
 * Check what only the whole matrix tells: the counts of the header, the triggers named but
 * not declared, and that every flow starts (a dry run of the triggers).
 * \param r the reader
 * \param [out] line the line at fault
 * \return an empty string, or what is wrong
 */
std::string
CheckMatrix(MatrixReader& r, uint32_t& line)
{
    line = r.connectionsLine;
    r.field = "Connections";
    if (r.connections >= 0 && static_cast<size_t>(r.connections) != r.flows.size())
    {
        return "the header says " + std::to_string(r.connections) + ", the matrix has " +
               std::to_string(r.flows.size());
    }
    r.field = "Triggers";
    line = r.triggersLine;
    if (r.triggerCount >= 0 && r.triggerCount > 0 &&
        static_cast<size_t>(r.triggerCount) != r.triggers.size())
    {
        return "the header says " + std::to_string(r.triggerCount) + ", the matrix names " +
               std::to_string(r.triggers.size());
    }
    r.field = "trigger";
    for (size_t t = 0; t < r.triggers.size(); ++t)
    {
        if (!r.triggerDeclared[t])
        {
            line = r.triggerLine[t];
            return "trigger " + std::to_string(r.triggers[t].id) +
                   " has no 'trigger id G ...' line";
        }
    }
    // Dry run: the flows with a start time start; each completion activates its trigger.
    std::vector<bool> started(r.flows.size(), false);
    std::vector<uint32_t> activations(r.triggers.size(), 0);
    std::deque<uint32_t> queue;
    for (uint32_t i = 0; i < r.flows.size(); ++i)
    {
        if (r.flows[i].trigger == FlowTrace::NONE)
        {
            queue.push_back(i);
        }
    }
    while (!queue.empty())
    {
        const uint32_t i = queue.front();
        queue.pop_front();
        started[i] = true;
        const uint32_t t = r.flows[i].activates;
        if (t == FlowTrace::NONE)
        {
            continue;
        }
        const FlowTrace::Trigger& g = r.triggers[t];
        const uint32_t n = ++activations[t];
        if (g.kind == FlowTrace::Trigger::MULTI_SHOT && n <= g.targets.size())
        {
            queue.push_back(g.targets[n - 1]);
        }
        else if (g.kind != FlowTrace::Trigger::MULTI_SHOT && n == g.count)
        {
            queue.insert(queue.end(), g.targets.begin(), g.targets.end());
        }
    }
    for (uint32_t i = 0; i < r.flows.size(); ++i)
    {
        if (!started[i])
        {
            line = r.flows[i].line;
            return "the flow waits for trigger " +
                   std::to_string(r.triggers[r.flows[i].trigger].id) +
                   ", which never fires for it (too few flows activate it, or in a cycle)";
        }
    }
    return "";
}

} // namespace

bool
FlowTrace::ParseConnectionMatrix(const std::string& text, uint32_t hosts, std::string& error)
{
    MatrixReader r;
    r.hosts = hosts;
    r.startPs = m_matrixStartPs;
    std::istringstream in(text);
    std::string line;
    uint32_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        std::istringstream fields(line);
        std::vector<std::string> tok;
        std::string t;
        while (fields >> t)
        {
            tok.push_back(t);
        }
        if (tok.empty() || tok[0][0] == '#')
        {
            continue;
        }
        std::string why;
        if (tok[0] == "Nodes" || tok[0] == "Connections" || tok[0] == "Triggers")
        {
            why = ParseHeader(tok, lineNo, r);
        }
        else if (tok[0] == "trigger")
        {
            why = ParseTriggerLine(tok, lineNo, r);
        }
        else if (tok[0].find("->") != std::string::npos)
        {
            why = ParseConnection(tok, lineNo, r);
        }
        else
        {
            r.field = tok[0];
            why = "unknown line; allowed: Nodes, Connections, Triggers, 'src->dst ...' and "
                  "'trigger id ...' lines (failure lines are not modelled)";
        }
        if (!why.empty())
        {
            error = "line " + std::to_string(lineNo) + ", " + r.field + ": " + why;
            return false;
        }
    }
    if (r.flows.empty())
    {
        error = "no flows (the matrix has no connections)";
        return false;
    }
    uint32_t at = 0;
    std::string why = CheckMatrix(r, at);
    if (!why.empty())
    {
        error = "line " + std::to_string(at) + ", " + r.field + ": " + why;
        return false;
    }
    m_flows = std::move(r.flows);
    m_triggers = std::move(r.triggers);
    return true;
}

} // namespace ns3
