// Printing (io.hpp): every expected string below was produced by NumPy 2.4
// (`str(a)`, i.e. `print(a)`), with the NumPy code in the comment above it.
#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>

#include <sinter/sinter.hpp>

namespace st = sinter;

namespace {

constexpr double nan_v = std::numeric_limits<double>::quiet_NaN();
constexpr double inf_v = std::numeric_limits<double>::infinity();

// A host array of the given shape filled in row-major order, each value
// converted from double (numpy: np.array(values, dtype).reshape(shape)).
template <class T, std::size_t R>
st::array<T, R> make(const st::extents<R>& shape, std::initializer_list<double> values) {
  st::array<T, R> a(shape);
  REQUIRE(static_cast<std::size_t>(a.size()) == values.size());
  auto v = values.begin();
  for (T& x : a) {
    if constexpr (st::is_half_like_v<T>) x = T(static_cast<float>(*v++));
    else x = static_cast<T>(*v++);
  }
  return a;
}

// start + i * step for the i-th element in row-major order, computed in
// double, then converted (numpy: (np.arange(n) * step + start).astype(dtype)).
template <class T, std::size_t R>
st::array<T, R> seq(const st::extents<R>& shape, double start, double step) {
  st::array<T, R> a(shape);
  double i = 0;
  for (T& x : a) x = static_cast<T>(i++ * step + start);
  return a;
}

// Restores the global print options on scope exit.
struct restore_print_options {
  st::print_options saved = st::get_print_options();
  ~restore_print_options() { st::set_print_options(saved); }
};

}  // namespace

TEST_CASE("to_string matches numpy str()") {
  // numpy: str(np.array([1, 2, 3, 4], dtype=np.float64).reshape((2, 2)))
  SUBCASE("2-D float") {
    const auto a = make<double, 2>({2, 2}, {1, 2, 3, 4});
    CHECK(st::to_string(a) == R"np([[1. 2.]
 [3. 4.]])np");
  }
  // numpy: str(np.array([], dtype=np.float64).reshape((0,)))
  SUBCASE("empty 1-D") {
    const auto a = make<double, 1>({0}, {});
    CHECK(st::to_string(a) == R"np([])np");
  }
  // numpy: str(np.array([], dtype=np.float64).reshape((0, 3)))
  SUBCASE("empty (0, 3)") {
    const auto a = make<double, 2>({0, 3}, {});
    CHECK(st::to_string(a) == R"np([])np");
  }
  // numpy: str(np.array([], dtype=np.int32).reshape((2, 0, 2)))
  SUBCASE("empty (2, 0, 2) int") {
    const auto a = make<std::int32_t, 3>({2, 0, 2}, {});
    CHECK(st::to_string(a) == R"np([])np");
  }
  // numpy: str(np.array([1.0], dtype=np.float64).reshape(()))
  SUBCASE("rank 0 float64 integral") {
    const auto a = make<double, 0>({}, {1.0});
    CHECK(st::to_string(a) == R"np(1.0)np");
  }
  // numpy: str(np.array([1e+20], dtype=np.float64).reshape(()))
  SUBCASE("rank 0 float64 large") {
    const auto a = make<double, 0>({}, {1e+20});
    CHECK(st::to_string(a) == R"np(1e+20)np");
  }
  // numpy: str(np.array([1.5e-05], dtype=np.float64).reshape(()))
  SUBCASE("rank 0 float64 small") {
    const auto a = make<double, 0>({}, {1.5e-05});
    CHECK(st::to_string(a) == R"np(1.5e-05)np");
  }
  // numpy: str(np.array([np.nan], dtype=np.float64).reshape(()))
  SUBCASE("rank 0 float64 nan") {
    const auto a = make<double, 0>({}, {nan_v});
    CHECK(st::to_string(a) == R"np(nan)np");
  }
  // numpy: str(np.array([0.1], dtype=np.float32).reshape(()))
  SUBCASE("rank 0 float32") {
    const auto a = make<float, 0>({}, {0.1});
    CHECK(st::to_string(a) == R"np(0.1)np");
  }
  // numpy: str(np.array([1000000.0], dtype=np.float32).reshape(()))
  SUBCASE("rank 0 float32 1e6") {
    const auto a = make<float, 0>({}, {1000000.0});
    CHECK(st::to_string(a) == R"np(1e+06)np");
  }
  // numpy: str(np.array([1000.0], dtype=np.float16).reshape(()))
  SUBCASE("rank 0 float16") {
    const auto a = make<st::half, 0>({}, {1000.0});
    CHECK(st::to_string(a) == R"np(1e+03)np");
  }
  // numpy: str(np.array([0.0999755859375], dtype=np.float16).reshape(()))
  SUBCASE("rank 0 float16 small") {
    const auto a = make<st::half, 0>({}, {0.0999755859375});
    CHECK(st::to_string(a) == R"np(0.1)np");
  }
  // numpy: str(np.array([-7], dtype=np.int32).reshape(()))
  SUBCASE("rank 0 int") {
    const auto a = make<std::int32_t, 0>({}, {-7});
    CHECK(st::to_string(a) == R"np(-7)np");
  }
  // numpy: str(np.array([True], dtype=np.bool).reshape(()))
  SUBCASE("rank 0 bool") {
    const auto a = make<bool, 0>({}, {1});
    CHECK(st::to_string(a) == R"np(True)np");
  }
  // numpy: str(np.array([0.5, 1.25, -3], dtype=np.float64).reshape((3,)))
  SUBCASE("1-D mixed fractions") {
    const auto a = make<double, 1>({3}, {0.5, 1.25, -3});
    CHECK(st::to_string(a) == R"np([ 0.5   1.25 -3.  ])np");
  }
  // numpy: str(np.array([0.3333333333333333, 0.6666666666666666, 1, 0.123456789], dtype=np.float64).reshape((4,)))
  SUBCASE("1-D precision cap") {
    const auto a = make<double, 1>({4}, {0.3333333333333333, 0.6666666666666666, 1, 0.123456789});
    CHECK(st::to_string(a) == R"np([0.33333333 0.66666667 1.         0.12345679])np");
  }
  // numpy: str(np.array([-0.0, 1], dtype=np.float64).reshape((2,)))
  SUBCASE("negative zero") {
    const auto a = make<double, 1>({2}, {-0.0, 1});
    CHECK(st::to_string(a) == R"np([-0.  1.])np");
  }
  // numpy: str(np.array([0, 0, 0], dtype=np.float64).reshape((3,)))
  SUBCASE("all zeros") {
    const auto a = make<double, 1>({3}, {0, 0, 0});
    CHECK(st::to_string(a) == R"np([0. 0. 0.])np");
  }
  // numpy: str((np.arange(12, dtype=np.float64) * 0.75 + -1.5).astype(np.float64).reshape((3, 4)))
  SUBCASE("2-D (3, 4) float") {
    const auto a = seq<double, 2>({3, 4}, -1.5, 0.75);
    CHECK(st::to_string(a) == R"np([[-1.5  -0.75  0.    0.75]
 [ 1.5   2.25  3.    3.75]
 [ 4.5   5.25  6.    6.75]])np");
  }
  // numpy: str((np.arange(24, dtype=np.float64) * 1 + -5).astype(np.int64).reshape((2, 3, 4)))
  SUBCASE("3-D (2, 3, 4) int") {
    const auto a = seq<std::int64_t, 3>({2, 3, 4}, -5, 1);
    CHECK(st::to_string(a) == R"np([[[-5 -4 -3 -2]
  [-1  0  1  2]
  [ 3  4  5  6]]

 [[ 7  8  9 10]
  [11 12 13 14]
  [15 16 17 18]]])np");
  }
  // numpy: str((np.arange(24, dtype=np.float64) * 0.5 + 0).astype(np.float64).reshape((2, 2, 2, 3)))
  SUBCASE("4-D (2, 2, 2, 3) float") {
    const auto a = seq<double, 4>({2, 2, 2, 3}, 0, 0.5);
    CHECK(st::to_string(a) == R"np([[[[ 0.   0.5  1. ]
   [ 1.5  2.   2.5]]

  [[ 3.   3.5  4. ]
   [ 4.5  5.   5.5]]]


 [[[ 6.   6.5  7. ]
   [ 7.5  8.   8.5]]

  [[ 9.   9.5 10. ]
   [10.5 11.  11.5]]]])np");
  }
  // numpy: str((np.arange(2000, dtype=np.float64) * 1 + 0).astype(np.float64).reshape((2000,)))
  SUBCASE("summarised 1-D float (scientific)") {
    const auto a = seq<double, 1>({2000}, 0, 1);
    CHECK(st::to_string(a) == R"np([0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03])np");
  }
  // numpy: str((np.arange(1001, dtype=np.float64) * 1 + -500).astype(np.int32).reshape((1001,)))
  SUBCASE("summarised 1-D int") {
    const auto a = seq<std::int32_t, 1>({1001}, -500, 1);
    CHECK(st::to_string(a) == R"np([-500 -499 -498 ...  498  499  500])np");
  }
  // numpy: str((np.arange(1600, dtype=np.float64) * 1 + 0).astype(np.int32).reshape((40, 40)))
  SUBCASE("summarised 2-D int") {
    const auto a = seq<std::int32_t, 2>({40, 40}, 0, 1);
    CHECK(st::to_string(a) == R"np([[   0    1    2 ...   37   38   39]
 [  40   41   42 ...   77   78   79]
 [  80   81   82 ...  117  118  119]
 ...
 [1480 1481 1482 ... 1517 1518 1519]
 [1520 1521 1522 ... 1557 1558 1559]
 [1560 1561 1562 ... 1597 1598 1599]])np");
  }
  // numpy: str((np.arange(5000, dtype=np.float64) * 0.25 + 0).astype(np.float64).reshape((100, 50)))
  SUBCASE("summarised 2-D float") {
    const auto a = seq<double, 2>({100, 50}, 0, 0.25);
    CHECK(st::to_string(a) == R"np([[0.00000e+00 2.50000e-01 5.00000e-01 ... 1.17500e+01 1.20000e+01
  1.22500e+01]
 [1.25000e+01 1.27500e+01 1.30000e+01 ... 2.42500e+01 2.45000e+01
  2.47500e+01]
 [2.50000e+01 2.52500e+01 2.55000e+01 ... 3.67500e+01 3.70000e+01
  3.72500e+01]
 ...
 [1.21250e+03 1.21275e+03 1.21300e+03 ... 1.22425e+03 1.22450e+03
  1.22475e+03]
 [1.22500e+03 1.22525e+03 1.22550e+03 ... 1.23675e+03 1.23700e+03
  1.23725e+03]
 [1.23750e+03 1.23775e+03 1.23800e+03 ... 1.24925e+03 1.24950e+03
  1.24975e+03]])np");
  }
  // numpy: str((np.arange(1728, dtype=np.float64) * 1 + 0).astype(np.int16).reshape((12, 12, 12)))
  SUBCASE("summarised 3-D int") {
    const auto a = seq<std::int16_t, 3>({12, 12, 12}, 0, 1);
    CHECK(st::to_string(a) == R"np([[[   0    1    2 ...    9   10   11]
  [  12   13   14 ...   21   22   23]
  [  24   25   26 ...   33   34   35]
  ...
  [ 108  109  110 ...  117  118  119]
  [ 120  121  122 ...  129  130  131]
  [ 132  133  134 ...  141  142  143]]

 [[ 144  145  146 ...  153  154  155]
  [ 156  157  158 ...  165  166  167]
  [ 168  169  170 ...  177  178  179]
  ...
  [ 252  253  254 ...  261  262  263]
  [ 264  265  266 ...  273  274  275]
  [ 276  277  278 ...  285  286  287]]

 [[ 288  289  290 ...  297  298  299]
  [ 300  301  302 ...  309  310  311]
  [ 312  313  314 ...  321  322  323]
  ...
  [ 396  397  398 ...  405  406  407]
  [ 408  409  410 ...  417  418  419]
  [ 420  421  422 ...  429  430  431]]

 ...

 [[1296 1297 1298 ... 1305 1306 1307]
  [1308 1309 1310 ... 1317 1318 1319]
  [1320 1321 1322 ... 1329 1330 1331]
  ...
  [1404 1405 1406 ... 1413 1414 1415]
  [1416 1417 1418 ... 1425 1426 1427]
  [1428 1429 1430 ... 1437 1438 1439]]

 [[1440 1441 1442 ... 1449 1450 1451]
  [1452 1453 1454 ... 1461 1462 1463]
  [1464 1465 1466 ... 1473 1474 1475]
  ...
  [1548 1549 1550 ... 1557 1558 1559]
  [1560 1561 1562 ... 1569 1570 1571]
  [1572 1573 1574 ... 1581 1582 1583]]

 [[1584 1585 1586 ... 1593 1594 1595]
  [1596 1597 1598 ... 1605 1606 1607]
  [1608 1609 1610 ... 1617 1618 1619]
  ...
  [1692 1693 1694 ... 1701 1702 1703]
  [1704 1705 1706 ... 1713 1714 1715]
  [1716 1717 1718 ... 1725 1726 1727]]])np");
  }
  // numpy: str((np.arange(2401, dtype=np.float64) * 1 + 0).astype(np.int32).reshape((7, 7, 7, 7)))
  SUBCASE("summarised 4-D") {
    const auto a = seq<std::int32_t, 4>({7, 7, 7, 7}, 0, 1);
    CHECK(st::to_string(a) == R"np([[[[   0    1    2 ...    4    5    6]
   [   7    8    9 ...   11   12   13]
   [  14   15   16 ...   18   19   20]
   ...
   [  28   29   30 ...   32   33   34]
   [  35   36   37 ...   39   40   41]
   [  42   43   44 ...   46   47   48]]

  [[  49   50   51 ...   53   54   55]
   [  56   57   58 ...   60   61   62]
   [  63   64   65 ...   67   68   69]
   ...
   [  77   78   79 ...   81   82   83]
   [  84   85   86 ...   88   89   90]
   [  91   92   93 ...   95   96   97]]

  [[  98   99  100 ...  102  103  104]
   [ 105  106  107 ...  109  110  111]
   [ 112  113  114 ...  116  117  118]
   ...
   [ 126  127  128 ...  130  131  132]
   [ 133  134  135 ...  137  138  139]
   [ 140  141  142 ...  144  145  146]]

  ...

  [[ 196  197  198 ...  200  201  202]
   [ 203  204  205 ...  207  208  209]
   [ 210  211  212 ...  214  215  216]
   ...
   [ 224  225  226 ...  228  229  230]
   [ 231  232  233 ...  235  236  237]
   [ 238  239  240 ...  242  243  244]]

  [[ 245  246  247 ...  249  250  251]
   [ 252  253  254 ...  256  257  258]
   [ 259  260  261 ...  263  264  265]
   ...
   [ 273  274  275 ...  277  278  279]
   [ 280  281  282 ...  284  285  286]
   [ 287  288  289 ...  291  292  293]]

  [[ 294  295  296 ...  298  299  300]
   [ 301  302  303 ...  305  306  307]
   [ 308  309  310 ...  312  313  314]
   ...
   [ 322  323  324 ...  326  327  328]
   [ 329  330  331 ...  333  334  335]
   [ 336  337  338 ...  340  341  342]]]


 [[[ 343  344  345 ...  347  348  349]
   [ 350  351  352 ...  354  355  356]
   [ 357  358  359 ...  361  362  363]
   ...
   [ 371  372  373 ...  375  376  377]
   [ 378  379  380 ...  382  383  384]
   [ 385  386  387 ...  389  390  391]]

  [[ 392  393  394 ...  396  397  398]
   [ 399  400  401 ...  403  404  405]
   [ 406  407  408 ...  410  411  412]
   ...
   [ 420  421  422 ...  424  425  426]
   [ 427  428  429 ...  431  432  433]
   [ 434  435  436 ...  438  439  440]]

  [[ 441  442  443 ...  445  446  447]
   [ 448  449  450 ...  452  453  454]
   [ 455  456  457 ...  459  460  461]
   ...
   [ 469  470  471 ...  473  474  475]
   [ 476  477  478 ...  480  481  482]
   [ 483  484  485 ...  487  488  489]]

  ...

  [[ 539  540  541 ...  543  544  545]
   [ 546  547  548 ...  550  551  552]
   [ 553  554  555 ...  557  558  559]
   ...
   [ 567  568  569 ...  571  572  573]
   [ 574  575  576 ...  578  579  580]
   [ 581  582  583 ...  585  586  587]]

  [[ 588  589  590 ...  592  593  594]
   [ 595  596  597 ...  599  600  601]
   [ 602  603  604 ...  606  607  608]
   ...
   [ 616  617  618 ...  620  621  622]
   [ 623  624  625 ...  627  628  629]
   [ 630  631  632 ...  634  635  636]]

  [[ 637  638  639 ...  641  642  643]
   [ 644  645  646 ...  648  649  650]
   [ 651  652  653 ...  655  656  657]
   ...
   [ 665  666  667 ...  669  670  671]
   [ 672  673  674 ...  676  677  678]
   [ 679  680  681 ...  683  684  685]]]


 [[[ 686  687  688 ...  690  691  692]
   [ 693  694  695 ...  697  698  699]
   [ 700  701  702 ...  704  705  706]
   ...
   [ 714  715  716 ...  718  719  720]
   [ 721  722  723 ...  725  726  727]
   [ 728  729  730 ...  732  733  734]]

  [[ 735  736  737 ...  739  740  741]
   [ 742  743  744 ...  746  747  748]
   [ 749  750  751 ...  753  754  755]
   ...
   [ 763  764  765 ...  767  768  769]
   [ 770  771  772 ...  774  775  776]
   [ 777  778  779 ...  781  782  783]]

  [[ 784  785  786 ...  788  789  790]
   [ 791  792  793 ...  795  796  797]
   [ 798  799  800 ...  802  803  804]
   ...
   [ 812  813  814 ...  816  817  818]
   [ 819  820  821 ...  823  824  825]
   [ 826  827  828 ...  830  831  832]]

  ...

  [[ 882  883  884 ...  886  887  888]
   [ 889  890  891 ...  893  894  895]
   [ 896  897  898 ...  900  901  902]
   ...
   [ 910  911  912 ...  914  915  916]
   [ 917  918  919 ...  921  922  923]
   [ 924  925  926 ...  928  929  930]]

  [[ 931  932  933 ...  935  936  937]
   [ 938  939  940 ...  942  943  944]
   [ 945  946  947 ...  949  950  951]
   ...
   [ 959  960  961 ...  963  964  965]
   [ 966  967  968 ...  970  971  972]
   [ 973  974  975 ...  977  978  979]]

  [[ 980  981  982 ...  984  985  986]
   [ 987  988  989 ...  991  992  993]
   [ 994  995  996 ...  998  999 1000]
   ...
   [1008 1009 1010 ... 1012 1013 1014]
   [1015 1016 1017 ... 1019 1020 1021]
   [1022 1023 1024 ... 1026 1027 1028]]]


 ...


 [[[1372 1373 1374 ... 1376 1377 1378]
   [1379 1380 1381 ... 1383 1384 1385]
   [1386 1387 1388 ... 1390 1391 1392]
   ...
   [1400 1401 1402 ... 1404 1405 1406]
   [1407 1408 1409 ... 1411 1412 1413]
   [1414 1415 1416 ... 1418 1419 1420]]

  [[1421 1422 1423 ... 1425 1426 1427]
   [1428 1429 1430 ... 1432 1433 1434]
   [1435 1436 1437 ... 1439 1440 1441]
   ...
   [1449 1450 1451 ... 1453 1454 1455]
   [1456 1457 1458 ... 1460 1461 1462]
   [1463 1464 1465 ... 1467 1468 1469]]

  [[1470 1471 1472 ... 1474 1475 1476]
   [1477 1478 1479 ... 1481 1482 1483]
   [1484 1485 1486 ... 1488 1489 1490]
   ...
   [1498 1499 1500 ... 1502 1503 1504]
   [1505 1506 1507 ... 1509 1510 1511]
   [1512 1513 1514 ... 1516 1517 1518]]

  ...

  [[1568 1569 1570 ... 1572 1573 1574]
   [1575 1576 1577 ... 1579 1580 1581]
   [1582 1583 1584 ... 1586 1587 1588]
   ...
   [1596 1597 1598 ... 1600 1601 1602]
   [1603 1604 1605 ... 1607 1608 1609]
   [1610 1611 1612 ... 1614 1615 1616]]

  [[1617 1618 1619 ... 1621 1622 1623]
   [1624 1625 1626 ... 1628 1629 1630]
   [1631 1632 1633 ... 1635 1636 1637]
   ...
   [1645 1646 1647 ... 1649 1650 1651]
   [1652 1653 1654 ... 1656 1657 1658]
   [1659 1660 1661 ... 1663 1664 1665]]

  [[1666 1667 1668 ... 1670 1671 1672]
   [1673 1674 1675 ... 1677 1678 1679]
   [1680 1681 1682 ... 1684 1685 1686]
   ...
   [1694 1695 1696 ... 1698 1699 1700]
   [1701 1702 1703 ... 1705 1706 1707]
   [1708 1709 1710 ... 1712 1713 1714]]]


 [[[1715 1716 1717 ... 1719 1720 1721]
   [1722 1723 1724 ... 1726 1727 1728]
   [1729 1730 1731 ... 1733 1734 1735]
   ...
   [1743 1744 1745 ... 1747 1748 1749]
   [1750 1751 1752 ... 1754 1755 1756]
   [1757 1758 1759 ... 1761 1762 1763]]

  [[1764 1765 1766 ... 1768 1769 1770]
   [1771 1772 1773 ... 1775 1776 1777]
   [1778 1779 1780 ... 1782 1783 1784]
   ...
   [1792 1793 1794 ... 1796 1797 1798]
   [1799 1800 1801 ... 1803 1804 1805]
   [1806 1807 1808 ... 1810 1811 1812]]

  [[1813 1814 1815 ... 1817 1818 1819]
   [1820 1821 1822 ... 1824 1825 1826]
   [1827 1828 1829 ... 1831 1832 1833]
   ...
   [1841 1842 1843 ... 1845 1846 1847]
   [1848 1849 1850 ... 1852 1853 1854]
   [1855 1856 1857 ... 1859 1860 1861]]

  ...

  [[1911 1912 1913 ... 1915 1916 1917]
   [1918 1919 1920 ... 1922 1923 1924]
   [1925 1926 1927 ... 1929 1930 1931]
   ...
   [1939 1940 1941 ... 1943 1944 1945]
   [1946 1947 1948 ... 1950 1951 1952]
   [1953 1954 1955 ... 1957 1958 1959]]

  [[1960 1961 1962 ... 1964 1965 1966]
   [1967 1968 1969 ... 1971 1972 1973]
   [1974 1975 1976 ... 1978 1979 1980]
   ...
   [1988 1989 1990 ... 1992 1993 1994]
   [1995 1996 1997 ... 1999 2000 2001]
   [2002 2003 2004 ... 2006 2007 2008]]

  [[2009 2010 2011 ... 2013 2014 2015]
   [2016 2017 2018 ... 2020 2021 2022]
   [2023 2024 2025 ... 2027 2028 2029]
   ...
   [2037 2038 2039 ... 2041 2042 2043]
   [2044 2045 2046 ... 2048 2049 2050]
   [2051 2052 2053 ... 2055 2056 2057]]]


 [[[2058 2059 2060 ... 2062 2063 2064]
   [2065 2066 2067 ... 2069 2070 2071]
   [2072 2073 2074 ... 2076 2077 2078]
   ...
   [2086 2087 2088 ... 2090 2091 2092]
   [2093 2094 2095 ... 2097 2098 2099]
   [2100 2101 2102 ... 2104 2105 2106]]

  [[2107 2108 2109 ... 2111 2112 2113]
   [2114 2115 2116 ... 2118 2119 2120]
   [2121 2122 2123 ... 2125 2126 2127]
   ...
   [2135 2136 2137 ... 2139 2140 2141]
   [2142 2143 2144 ... 2146 2147 2148]
   [2149 2150 2151 ... 2153 2154 2155]]

  [[2156 2157 2158 ... 2160 2161 2162]
   [2163 2164 2165 ... 2167 2168 2169]
   [2170 2171 2172 ... 2174 2175 2176]
   ...
   [2184 2185 2186 ... 2188 2189 2190]
   [2191 2192 2193 ... 2195 2196 2197]
   [2198 2199 2200 ... 2202 2203 2204]]

  ...

  [[2254 2255 2256 ... 2258 2259 2260]
   [2261 2262 2263 ... 2265 2266 2267]
   [2268 2269 2270 ... 2272 2273 2274]
   ...
   [2282 2283 2284 ... 2286 2287 2288]
   [2289 2290 2291 ... 2293 2294 2295]
   [2296 2297 2298 ... 2300 2301 2302]]

  [[2303 2304 2305 ... 2307 2308 2309]
   [2310 2311 2312 ... 2314 2315 2316]
   [2317 2318 2319 ... 2321 2322 2323]
   ...
   [2331 2332 2333 ... 2335 2336 2337]
   [2338 2339 2340 ... 2342 2343 2344]
   [2345 2346 2347 ... 2349 2350 2351]]

  [[2352 2353 2354 ... 2356 2357 2358]
   [2359 2360 2361 ... 2363 2364 2365]
   [2366 2367 2368 ... 2370 2371 2372]
   ...
   [2380 2381 2382 ... 2384 2385 2386]
   [2387 2388 2389 ... 2391 2392 2393]
   [2394 2395 2396 ... 2398 2399 2400]]]])np");
  }
  // numpy: str((np.arange(1296, dtype=np.float64) * 1 + 0).astype(np.int32).reshape((6, 6, 6, 6)))
  SUBCASE("over threshold but no long axis") {
    const auto a = seq<std::int32_t, 4>({6, 6, 6, 6}, 0, 1);
    CHECK(st::to_string(a) == R"np([[[[   0    1    2    3    4    5]
   [   6    7    8    9   10   11]
   [  12   13   14   15   16   17]
   [  18   19   20   21   22   23]
   [  24   25   26   27   28   29]
   [  30   31   32   33   34   35]]

  [[  36   37   38   39   40   41]
   [  42   43   44   45   46   47]
   [  48   49   50   51   52   53]
   [  54   55   56   57   58   59]
   [  60   61   62   63   64   65]
   [  66   67   68   69   70   71]]

  [[  72   73   74   75   76   77]
   [  78   79   80   81   82   83]
   [  84   85   86   87   88   89]
   [  90   91   92   93   94   95]
   [  96   97   98   99  100  101]
   [ 102  103  104  105  106  107]]

  [[ 108  109  110  111  112  113]
   [ 114  115  116  117  118  119]
   [ 120  121  122  123  124  125]
   [ 126  127  128  129  130  131]
   [ 132  133  134  135  136  137]
   [ 138  139  140  141  142  143]]

  [[ 144  145  146  147  148  149]
   [ 150  151  152  153  154  155]
   [ 156  157  158  159  160  161]
   [ 162  163  164  165  166  167]
   [ 168  169  170  171  172  173]
   [ 174  175  176  177  178  179]]

  [[ 180  181  182  183  184  185]
   [ 186  187  188  189  190  191]
   [ 192  193  194  195  196  197]
   [ 198  199  200  201  202  203]
   [ 204  205  206  207  208  209]
   [ 210  211  212  213  214  215]]]


 [[[ 216  217  218  219  220  221]
   [ 222  223  224  225  226  227]
   [ 228  229  230  231  232  233]
   [ 234  235  236  237  238  239]
   [ 240  241  242  243  244  245]
   [ 246  247  248  249  250  251]]

  [[ 252  253  254  255  256  257]
   [ 258  259  260  261  262  263]
   [ 264  265  266  267  268  269]
   [ 270  271  272  273  274  275]
   [ 276  277  278  279  280  281]
   [ 282  283  284  285  286  287]]

  [[ 288  289  290  291  292  293]
   [ 294  295  296  297  298  299]
   [ 300  301  302  303  304  305]
   [ 306  307  308  309  310  311]
   [ 312  313  314  315  316  317]
   [ 318  319  320  321  322  323]]

  [[ 324  325  326  327  328  329]
   [ 330  331  332  333  334  335]
   [ 336  337  338  339  340  341]
   [ 342  343  344  345  346  347]
   [ 348  349  350  351  352  353]
   [ 354  355  356  357  358  359]]

  [[ 360  361  362  363  364  365]
   [ 366  367  368  369  370  371]
   [ 372  373  374  375  376  377]
   [ 378  379  380  381  382  383]
   [ 384  385  386  387  388  389]
   [ 390  391  392  393  394  395]]

  [[ 396  397  398  399  400  401]
   [ 402  403  404  405  406  407]
   [ 408  409  410  411  412  413]
   [ 414  415  416  417  418  419]
   [ 420  421  422  423  424  425]
   [ 426  427  428  429  430  431]]]


 [[[ 432  433  434  435  436  437]
   [ 438  439  440  441  442  443]
   [ 444  445  446  447  448  449]
   [ 450  451  452  453  454  455]
   [ 456  457  458  459  460  461]
   [ 462  463  464  465  466  467]]

  [[ 468  469  470  471  472  473]
   [ 474  475  476  477  478  479]
   [ 480  481  482  483  484  485]
   [ 486  487  488  489  490  491]
   [ 492  493  494  495  496  497]
   [ 498  499  500  501  502  503]]

  [[ 504  505  506  507  508  509]
   [ 510  511  512  513  514  515]
   [ 516  517  518  519  520  521]
   [ 522  523  524  525  526  527]
   [ 528  529  530  531  532  533]
   [ 534  535  536  537  538  539]]

  [[ 540  541  542  543  544  545]
   [ 546  547  548  549  550  551]
   [ 552  553  554  555  556  557]
   [ 558  559  560  561  562  563]
   [ 564  565  566  567  568  569]
   [ 570  571  572  573  574  575]]

  [[ 576  577  578  579  580  581]
   [ 582  583  584  585  586  587]
   [ 588  589  590  591  592  593]
   [ 594  595  596  597  598  599]
   [ 600  601  602  603  604  605]
   [ 606  607  608  609  610  611]]

  [[ 612  613  614  615  616  617]
   [ 618  619  620  621  622  623]
   [ 624  625  626  627  628  629]
   [ 630  631  632  633  634  635]
   [ 636  637  638  639  640  641]
   [ 642  643  644  645  646  647]]]


 [[[ 648  649  650  651  652  653]
   [ 654  655  656  657  658  659]
   [ 660  661  662  663  664  665]
   [ 666  667  668  669  670  671]
   [ 672  673  674  675  676  677]
   [ 678  679  680  681  682  683]]

  [[ 684  685  686  687  688  689]
   [ 690  691  692  693  694  695]
   [ 696  697  698  699  700  701]
   [ 702  703  704  705  706  707]
   [ 708  709  710  711  712  713]
   [ 714  715  716  717  718  719]]

  [[ 720  721  722  723  724  725]
   [ 726  727  728  729  730  731]
   [ 732  733  734  735  736  737]
   [ 738  739  740  741  742  743]
   [ 744  745  746  747  748  749]
   [ 750  751  752  753  754  755]]

  [[ 756  757  758  759  760  761]
   [ 762  763  764  765  766  767]
   [ 768  769  770  771  772  773]
   [ 774  775  776  777  778  779]
   [ 780  781  782  783  784  785]
   [ 786  787  788  789  790  791]]

  [[ 792  793  794  795  796  797]
   [ 798  799  800  801  802  803]
   [ 804  805  806  807  808  809]
   [ 810  811  812  813  814  815]
   [ 816  817  818  819  820  821]
   [ 822  823  824  825  826  827]]

  [[ 828  829  830  831  832  833]
   [ 834  835  836  837  838  839]
   [ 840  841  842  843  844  845]
   [ 846  847  848  849  850  851]
   [ 852  853  854  855  856  857]
   [ 858  859  860  861  862  863]]]


 [[[ 864  865  866  867  868  869]
   [ 870  871  872  873  874  875]
   [ 876  877  878  879  880  881]
   [ 882  883  884  885  886  887]
   [ 888  889  890  891  892  893]
   [ 894  895  896  897  898  899]]

  [[ 900  901  902  903  904  905]
   [ 906  907  908  909  910  911]
   [ 912  913  914  915  916  917]
   [ 918  919  920  921  922  923]
   [ 924  925  926  927  928  929]
   [ 930  931  932  933  934  935]]

  [[ 936  937  938  939  940  941]
   [ 942  943  944  945  946  947]
   [ 948  949  950  951  952  953]
   [ 954  955  956  957  958  959]
   [ 960  961  962  963  964  965]
   [ 966  967  968  969  970  971]]

  [[ 972  973  974  975  976  977]
   [ 978  979  980  981  982  983]
   [ 984  985  986  987  988  989]
   [ 990  991  992  993  994  995]
   [ 996  997  998  999 1000 1001]
   [1002 1003 1004 1005 1006 1007]]

  [[1008 1009 1010 1011 1012 1013]
   [1014 1015 1016 1017 1018 1019]
   [1020 1021 1022 1023 1024 1025]
   [1026 1027 1028 1029 1030 1031]
   [1032 1033 1034 1035 1036 1037]
   [1038 1039 1040 1041 1042 1043]]

  [[1044 1045 1046 1047 1048 1049]
   [1050 1051 1052 1053 1054 1055]
   [1056 1057 1058 1059 1060 1061]
   [1062 1063 1064 1065 1066 1067]
   [1068 1069 1070 1071 1072 1073]
   [1074 1075 1076 1077 1078 1079]]]


 [[[1080 1081 1082 1083 1084 1085]
   [1086 1087 1088 1089 1090 1091]
   [1092 1093 1094 1095 1096 1097]
   [1098 1099 1100 1101 1102 1103]
   [1104 1105 1106 1107 1108 1109]
   [1110 1111 1112 1113 1114 1115]]

  [[1116 1117 1118 1119 1120 1121]
   [1122 1123 1124 1125 1126 1127]
   [1128 1129 1130 1131 1132 1133]
   [1134 1135 1136 1137 1138 1139]
   [1140 1141 1142 1143 1144 1145]
   [1146 1147 1148 1149 1150 1151]]

  [[1152 1153 1154 1155 1156 1157]
   [1158 1159 1160 1161 1162 1163]
   [1164 1165 1166 1167 1168 1169]
   [1170 1171 1172 1173 1174 1175]
   [1176 1177 1178 1179 1180 1181]
   [1182 1183 1184 1185 1186 1187]]

  [[1188 1189 1190 1191 1192 1193]
   [1194 1195 1196 1197 1198 1199]
   [1200 1201 1202 1203 1204 1205]
   [1206 1207 1208 1209 1210 1211]
   [1212 1213 1214 1215 1216 1217]
   [1218 1219 1220 1221 1222 1223]]

  [[1224 1225 1226 1227 1228 1229]
   [1230 1231 1232 1233 1234 1235]
   [1236 1237 1238 1239 1240 1241]
   [1242 1243 1244 1245 1246 1247]
   [1248 1249 1250 1251 1252 1253]
   [1254 1255 1256 1257 1258 1259]]

  [[1260 1261 1262 1263 1264 1265]
   [1266 1267 1268 1269 1270 1271]
   [1272 1273 1274 1275 1276 1277]
   [1278 1279 1280 1281 1282 1283]
   [1284 1285 1286 1287 1288 1289]
   [1290 1291 1292 1293 1294 1295]]]])np");
  }
  // numpy: str((np.arange(2000, dtype=np.float64) * 1 + 0).astype(np.int32).reshape((2, 1000)))
  SUBCASE("summarised only on the long axis") {
    const auto a = seq<std::int32_t, 2>({2, 1000}, 0, 1);
    CHECK(st::to_string(a) == R"np([[   0    1    2 ...  997  998  999]
 [1000 1001 1002 ... 1997 1998 1999]])np");
  }
  // numpy: str(np.array([1e-05, 1, 1000], dtype=np.float64).reshape((3,)))
  SUBCASE("scientific: small values") {
    const auto a = make<double, 1>({3}, {1e-05, 1, 1000});
    CHECK(st::to_string(a) == R"np([1.e-05 1.e+00 1.e+03])np");
  }
  // numpy: str(np.array([10000000000.0, 1], dtype=np.float64).reshape((2,)))
  SUBCASE("scientific: large") {
    const auto a = make<double, 1>({2}, {10000000000.0, 1});
    CHECK(st::to_string(a) == R"np([1.e+10 1.e+00])np");
  }
  // numpy: str(np.array([0.0015, -2250.0], dtype=np.float64).reshape((2,)))
  SUBCASE("scientific: ratio over 1e3") {
    const auto a = make<double, 1>({2}, {0.0015, -2250.0});
    CHECK(st::to_string(a) == R"np([ 1.50e-03 -2.25e+03])np");
  }
  // numpy: str(np.array([1e-100, 1.5e+100], dtype=np.float64).reshape((2,)))
  SUBCASE("scientific: wide exponent") {
    const auto a = make<double, 1>({2}, {1e-100, 1.5e+100});
    CHECK(st::to_string(a) == R"np([1.0e-100 1.5e+100])np");
  }
  // numpy: str(np.array([np.nan_v, 10000000000.0, -np.inf, 2], dtype=np.float64).reshape((4,)))
  SUBCASE("scientific with nan/inf") {
    const auto a = make<double, 1>({4}, {nan_v, 10000000000.0, -inf_v, 2});
    CHECK(st::to_string(a) == R"np([   nan 1.e+10   -inf 2.e+00])np");
  }
  // numpy: str(np.array([np.nan_v, np.inf, -np.inf, 1.5], dtype=np.float64).reshape((4,)))
  SUBCASE("nan inf mixed") {
    const auto a = make<double, 1>({4}, {nan_v, inf_v, -inf_v, 1.5});
    CHECK(st::to_string(a) == R"np([ nan  inf -inf  1.5])np");
  }
  // numpy: str(np.array([np.nan_v, np.inf], dtype=np.float64).reshape((2,)))
  SUBCASE("only nan inf") {
    const auto a = make<double, 1>({2}, {nan_v, inf_v});
    CHECK(st::to_string(a) == R"np([nan inf])np");
  }
  // numpy: str(np.array([np.nan_v, -np.inf], dtype=np.float64).reshape((2,)))
  SUBCASE("only nan -inf") {
    const auto a = make<double, 1>({2}, {nan_v, -inf_v});
    CHECK(st::to_string(a) == R"np([ nan -inf])np");
  }
  // numpy: str(np.array([-100, 5, 20, 3, -7, 0], dtype=np.int32).reshape((2, 3)))
  SUBCASE("ints with negatives") {
    const auto a = make<std::int32_t, 2>({2, 3}, {-100, 5, 20, 3, -7, 0});
    CHECK(st::to_string(a) == R"np([[-100    5   20]
 [   3   -7    0]])np");
  }
  // numpy: str(np.array([-128, 0, 127], dtype=np.int8).reshape((3,)))
  SUBCASE("int8") {
    const auto a = make<std::int8_t, 1>({3}, {-128, 0, 127});
    CHECK(st::to_string(a) == R"np([-128    0  127])np");
  }
  // numpy: str(np.array([0, 255, 7, 42], dtype=np.uint8).reshape((4,)))
  SUBCASE("uint8") {
    const auto a = make<std::uint8_t, 1>({4}, {0, 255, 7, 42});
    CHECK(st::to_string(a) == R"np([  0 255   7  42])np");
  }
  // numpy: str(np.array([True, False, False, True], dtype=np.bool).reshape((2, 2)))
  SUBCASE("bools") {
    const auto a = make<bool, 2>({2, 2}, {1, 0, 0, 1});
    CHECK(st::to_string(a) == R"np([[ True False]
 [False  True]])np");
  }
  // numpy: str(np.array([0.0999755859375, 0.5, 3.140625, 1000.0], dtype=np.float16).reshape((4,)))
  SUBCASE("float16") {
    const auto a = make<st::half, 1>({4}, {0.0999755859375, 0.5, 3.140625, 1000.0});
    CHECK(st::to_string(a) == R"np([1.00e-01 5.00e-01 3.14e+00 1.00e+03])np");
  }
  // numpy: str(np.array([0.0999755859375, 65504.0, -2.0], dtype=np.float16).reshape((3,)))
  SUBCASE("float16 scientific") {
    const auto a = make<st::half, 1>({3}, {0.0999755859375, 65504.0, -2.0});
    CHECK(st::to_string(a) == R"np([ 1.00e-01  6.55e+04 -2.00e+00])np");
  }
  // numpy: str(np.array([0.1, 0.2, 0.3], dtype=np.float32).reshape((3,)))
  SUBCASE("float32 shortest") {
    const auto a = make<float, 1>({3}, {0.1, 0.2, 0.3});
    CHECK(st::to_string(a) == R"np([0.1 0.2 0.3])np");
  }
  // numpy: str(np.array([100000000.0, 3.0], dtype=np.float32).reshape((2,)))
  SUBCASE("float32 large") {
    const auto a = make<float, 1>({2}, {100000000.0, 3.0});
    CHECK(st::to_string(a) == R"np([1.e+08 3.e+00])np");
  }
  // numpy: str(np.array([1657.0, -7632.0, 10880.0], dtype=np.float16).reshape((3,)))
  SUBCASE("float16: scientific from 1e3 (finfo precision 3)") {
    const auto a = make<st::half, 1>({3}, {1657.0, -7632.0, 10880.0});
    CHECK(st::to_string(a) == R"np([ 1.657e+03 -7.632e+03  1.088e+04])np");
  }
  // numpy: str(np.array([-33419.598, 1512828.6], dtype=np.float32).reshape((2,)))
  SUBCASE("float32: scientific from 1e6 (finfo precision 6)") {
    const auto a = make<float, 1>({2}, {-33419.598, 1512828.6});
    CHECK(st::to_string(a) == R"np([-3.3419598e+04  1.5128286e+06])np");
  }
  // numpy: str(np.array([1.0205078125, 0.1600341796875, -250.0], dtype=np.float16).reshape((3,)))
  SUBCASE("float16: scientific digits past the shortest are exact") {
    const auto a = make<st::half, 1>({3}, {1.0205078125, 0.1600341796875, -250.0});
    CHECK(st::to_string(a) == R"np([ 1.0205e+00  1.6003e-01 -2.5000e+02])np");
  }
  // numpy: str(np.array([5.960464477539063e-08, 0.5], dtype=np.float16).reshape((2,)))
  SUBCASE("float16 subnormal") {
    const auto a = make<st::half, 1>({2}, {5.960464477539063e-08, 0.5});
    CHECK(st::to_string(a) == R"np([6.e-08 5.e-01])np");
  }
  // numpy: str((np.arange(30, dtype=np.float64) * 1.1 + 0).astype(np.float64).reshape((30,)))
  SUBCASE("wrapping 1-D") {
    const auto a = seq<double, 1>({30}, 0, 1.1);
    CHECK(st::to_string(a) == R"np([ 0.   1.1  2.2  3.3  4.4  5.5  6.6  7.7  8.8  9.9 11.  12.1 13.2 14.3
 15.4 16.5 17.6 18.7 19.8 20.9 22.  23.1 24.2 25.3 26.4 27.5 28.6 29.7
 30.8 31.9])np");
  }
  // numpy: str((np.arange(60, dtype=np.float64) * 0.37 + -2).astype(np.float64).reshape((3, 20)))
  SUBCASE("wrapping 2-D") {
    const auto a = seq<double, 2>({3, 20}, -2, 0.37);
    CHECK(st::to_string(a) == R"np([[-2.   -1.63 -1.26 -0.89 -0.52 -0.15  0.22  0.59  0.96  1.33  1.7   2.07
   2.44  2.81  3.18  3.55  3.92  4.29  4.66  5.03]
 [ 5.4   5.77  6.14  6.51  6.88  7.25  7.62  7.99  8.36  8.73  9.1   9.47
   9.84 10.21 10.58 10.95 11.32 11.69 12.06 12.43]
 [12.8  13.17 13.54 13.91 14.28 14.65 15.02 15.39 15.76 16.13 16.5  16.87
  17.24 17.61 17.98 18.35 18.72 19.09 19.46 19.83]])np");
  }
  // numpy: str((np.arange(120, dtype=np.float64) * 37 + 1000).astype(np.int64).reshape((2, 2, 30)))
  SUBCASE("wrapping 3-D") {
    const auto a = seq<std::int64_t, 3>({2, 2, 30}, 1000, 37);
    CHECK(st::to_string(a) == R"np([[[1000 1037 1074 1111 1148 1185 1222 1259 1296 1333 1370 1407 1444 1481
   1518 1555 1592 1629 1666 1703 1740 1777 1814 1851 1888 1925 1962 1999
   2036 2073]
  [2110 2147 2184 2221 2258 2295 2332 2369 2406 2443 2480 2517 2554 2591
   2628 2665 2702 2739 2776 2813 2850 2887 2924 2961 2998 3035 3072 3109
   3146 3183]]

 [[3220 3257 3294 3331 3368 3405 3442 3479 3516 3553 3590 3627 3664 3701
   3738 3775 3812 3849 3886 3923 3960 3997 4034 4071 4108 4145 4182 4219
   4256 4293]
  [4330 4367 4404 4441 4478 4515 4552 4589 4626 4663 4700 4737 4774 4811
   4848 4885 4922 4959 4996 5033 5070 5107 5144 5181 5218 5255 5292 5329
   5366 5403]]])np");
  }
  // numpy: with np.printoptions(**{'threshold': 10, 'edgeitems': 2, 'precision': 3, 'linewidth': 30}): str((np.arange(20, dtype=np.float64) * 0.14285714285714285 + 0).astype(np.float64).reshape((20,)))
  SUBCASE("print options") {
    const auto a = seq<double, 1>({20}, 0, 0.14285714285714285);
    const st::print_options o{.threshold = 10, .edgeitems = 2, .precision = 3, .linewidth = 30};
    CHECK(st::to_string(a, o) == R"np([0.    0.143 ... 2.571 2.714])np");
  }
  // numpy: with np.printoptions(**{'threshold': 20, 'edgeitems': 1, 'precision': 8, 'linewidth': 75}): str((np.arange(30, dtype=np.float64) * 1 + 0).astype(np.int32).reshape((5, 6)))
  SUBCASE("print options 2-D") {
    const auto a = seq<std::int32_t, 2>({5, 6}, 0, 1);
    const st::print_options o{.threshold = 20, .edgeitems = 1, .precision = 8, .linewidth = 75};
    CHECK(st::to_string(a, o) == R"np([[ 0 ...  5]
 ...
 [24 ... 29]])np");
  }
}

TEST_CASE("to_string: precision cap and notation edge cases") {
  // numpy: str(np.array([1e-4, 1e-3]))
  CHECK(st::to_string(make<double, 1>({2}, {1e-4, 1e-3})) == "[0.0001 0.001 ]");
  // numpy: str(np.array([0.1000000001, 123.456]))
  CHECK(st::to_string(make<double, 1>({2}, {0.1000000001, 123.456})) == "[1.00000e-01 1.23456e+02]");
  // numpy: str(np.array([1e16]))
  CHECK(st::to_string(make<double, 1>({1}, {1e16})) == "[1.e+16]");
  // numpy: str(np.array([99999999.99]))
  CHECK(st::to_string(make<double, 1>({1}, {99999999.99})) == "[99999999.99]");
  // numpy: str(np.array([1.5, np.nan]))
  CHECK(st::to_string(make<double, 1>({2}, {1.5, nan_v})) == "[1.5 nan]");
  // numpy: str(np.array([9.9999999996, 1.0]))  (rounding at 8 digits carries into the integer part)
  CHECK(st::to_string(make<double, 1>({2}, {9.9999999996, 1.0})) == "[10.  1.]");
  // numpy: str(np.array([9.99999999996e5, 1.0e5]))
  CHECK(st::to_string(make<double, 1>({2}, {9.99999999996e5, 1.0e5})) == "[999999.999996 100000.      ]");
  // numpy: str(np.array([9.999999999996e-4, 1.0e-5]))  (the mantissa rounds up to 1.e-03)
  CHECK(st::to_string(make<double, 1>({2}, {9.999999999996e-4, 1.0e-5})) == "[1.e-03 1.e-05]");
}

TEST_CASE("to_string: integer extremes") {
  // numpy: str(np.array([-9223372036854775808, 9223372036854775807]))
  auto a = st::asarray<std::int64_t>({std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()});
  CHECK(st::to_string(a) == "[-9223372036854775808  9223372036854775807]");
  // numpy: str(np.array([0, 18446744073709551615], dtype=np.uint64))
  auto b = st::asarray<std::uint64_t>({0u, std::numeric_limits<std::uint64_t>::max()});
  CHECK(st::to_string(b) == "[                   0 18446744073709551615]");
}

TEST_CASE("to_string: bfloat16 uses the shortest decimal that round-trips through bfloat16") {
  // NumPy has no bfloat16; these follow the float16 rules. bfloat16(0.1) is
  // 0.10009765625, bfloat16(3.14) is 3.140625; "0.1" and "3.14" read back as them.
  const auto a = make<st::bfloat16, 1>({3}, {0.1, 3.14, -2.0});
  CHECK(st::to_string(a) == "[ 0.1   3.14 -2.  ]");
  CHECK(st::to_string(make<st::bfloat16, 0>({}, {0.1})) == "0.1");
}

TEST_CASE_TEMPLATE("printing views, expressions and streams", P, sinter::host, sinter::par) {
  st::array<double, 2, P> a({3, 4});
  double v = 0;
  for (double& x : a) x = 0.5 * v++;  // numpy: a = (np.arange(12.) * 0.5).reshape(3, 4)

  // numpy: str(a[::-1, 1::2])
  CHECK(st::to_string(a(st::slice(st::none, st::none, -1), st::slice(1, st::none, 2))) ==
        "[[4.5 5.5]\n [2.5 3.5]\n [0.5 1.5]]");
  // numpy: str(a[1])
  CHECK(st::to_string(a(1, st::all)) == "[2.  2.5 3.  3.5]");
  // numpy: str(a[:, 2])
  CHECK(st::to_string(a(st::all, 2)) == "[1. 3. 5.]");
  // numpy: str(np.sqrt(np.arange(4.)))
  CHECK(st::to_string(st::sqrt(a(0, st::all) * 2.0)) == "[0.         1.         1.41421356 1.73205081]");

  std::ostringstream os;
  os << a << '\n' << a(0, st::all) << '\n' << (a(0, st::all) > 0.75);
  // numpy: print(a); print(a[0]); print(a[0] > 0.75)
  CHECK(os.str() ==
        "[[0.  0.5 1.  1.5]\n [2.  2.5 3.  3.5]\n [4.  4.5 5.  5.5]]\n[0.  0.5 1.  1.5]\n[False False  True  True]");
}

TEST_CASE("printing expressions") {
  // numpy: str(np.arange(5) * 2)
  CHECK(st::to_string(st::arange<int>(5) * 2) == "[0 2 4 6 8]");
  std::ostringstream os;
  os << (st::arange<double>(5.0) > 2.0);
  // numpy: str(np.arange(5.) > 2)
  CHECK(os.str() == "[False False False  True  True]");
}

TEST_CASE("set_print_options applies globally") {
  restore_print_options guard;
  st::set_print_options({.threshold = 5, .edgeitems = 1});
  CHECK(st::get_print_options().threshold == 5);
  std::ostringstream os;
  os << st::arange<int>(10);
  // numpy: with np.printoptions(threshold=5, edgeitems=1): str(np.arange(10))
  CHECK(os.str() == "[0 ... 9]");
  st::set_print_options({});
  CHECK(st::to_string(st::arange<int>(10)) == "[0 1 2 3 4 5 6 7 8 9]");
  CHECK_THROWS_AS(st::set_print_options({.precision = -1}), st::value_error);
  CHECK_THROWS_AS(st::to_string(st::arange<int>(3), {.linewidth = 0}), st::value_error);
}

TEST_CASE("printing fetches only the elements it shows") {
  // The hook a device backend uses: only 3 + 3 edge items per axis are read.
  int calls = 0;
  const std::string s = st::detail::format_fetched<int, 2>(
      {100, 100},
      [&](const st::extents<2>& i) {
        ++calls;
        return static_cast<int>(i[0] * 100 + i[1]);
      },
      st::print_options{});
  CHECK(calls == 36);
  // numpy: str(np.arange(10000).reshape(100, 100))
  CHECK(s ==
        "[[   0    1    2 ...   97   98   99]\n"
        " [ 100  101  102 ...  197  198  199]\n"
        " [ 200  201  202 ...  297  298  299]\n"
        " ...\n"
        " [9700 9701 9702 ... 9797 9798 9799]\n"
        " [9800 9801 9802 ... 9897 9898 9899]\n"
        " [9900 9901 9902 ... 9997 9998 9999]]");
}
