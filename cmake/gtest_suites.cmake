# Build-time step of redisson_add_gtest_suites (tests/CMakeLists.txt): lists the test suites of a
# GoogleTest binary and writes a ctest file with one test, and so one process, per suite.
# Used with:
#   -D TEST_EXECUTABLE=<binary> -D CTEST_FILE=<file to write> -D LABEL=<ctest label>
#   -D TIMEOUT=<seconds per suite> -D WORKING_DIRECTORY=<dir>
execute_process(COMMAND "${TEST_EXECUTABLE}" --gtest_list_tests
                OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE result TIMEOUT 60)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed (${result}):\n${listing}${errors}")
endif()

# A suite's line starts in column 0 and ends its name with a dot ("Suite." or, for typed and
# parameterised suites, "Prefix/Suite." and "Suite/0.  # TypeParam = ..."); its tests are indented.
string(REPLACE "\n" ";" lines "${listing}")
set(content "")
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #][^ ]*)\\.")
    set(suite "${CMAKE_MATCH_1}")
    string(APPEND content
      "add_test([=[${suite}]=] [=[${TEST_EXECUTABLE}]=] [=[--gtest_filter=${suite}.*]=])\n"
      "set_tests_properties([=[${suite}]=] PROPERTIES LABELS [=[${LABEL}]=] TIMEOUT ${TIMEOUT}"
      " WORKING_DIRECTORY [=[${WORKING_DIRECTORY}]=])\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} lists no test suites")
endif()
file(WRITE "${CTEST_FILE}" "${content}")
