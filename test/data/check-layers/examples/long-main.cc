/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fixture of test/check-layers-test.py: main, long, right after an anonymous namespace.

namespace
{

/// The only thing in the anonymous namespace: a struct, whose closing brace is "};".
struct Options
{
    int hosts = 2; //!< How many hosts.
};

} // namespace

int
main(int argc, char* argv[])
{
    int sum = argc;
    sum += 0; // {
    sum += 1; // {
    sum += 2; // {
    sum += 3; // {
    sum += 4; // {
    sum += 5; // {
    sum += 6; // {
    sum += 7; // {
    sum += 8; // {
    sum += 9; // {
    sum += 10; // {
    sum += 11; // {
    sum += 12; // {
    sum += 13; // {
    sum += 14; // {
    sum += 15; // {
    sum += 16; // {
    sum += 17; // {
    sum += 18; // {
    sum += 19; // {
    sum += 20; // {
    sum += 21; // {
    sum += 22; // {
    sum += 23; // {
    sum += 24; // {
    sum += 25; // {
    sum += 26; // {
    sum += 27; // {
    sum += 28; // {
    sum += 29; // {
    sum += 30; // {
    sum += 31; // {
    sum += 32; // {
    sum += 33; // {
    sum += 34; // {
    sum += 35; // {
    sum += 36; // {
    sum += 37; // {
    sum += 38; // {
    sum += 39; // {
    sum += 40; // {
    sum += 41; // {
    sum += 42; // {
    sum += 43; // {
    sum += 44; // {
    sum += 45; // {
    sum += 46; // {
    sum += 47; // {
    sum += 48; // {
    sum += 49; // {
    sum += 50; // {
    sum += 51; // {
    sum += 52; // {
    sum += 53; // {
    sum += 54; // {
    sum += 55; // {
    sum += 56; // {
    sum += 57; // {
    sum += 58; // {
    sum += 59; // {
    sum += 60; // {
    sum += 61; // {
    sum += 62; // {
    sum += 63; // {
    sum += 64; // {
    sum += 65; // {
    sum += 66; // {
    sum += 67; // {
    sum += 68; // {
    sum += 69; // {
    sum += 70; // {
    sum += 71; // {
    sum += 72; // {
    sum += 73; // {
    sum += 74; // {
    sum += 75; // {
    sum += 76; // {
    sum += 77; // {
    sum += 78; // {
    sum += 79; // {
    return sum;
}
