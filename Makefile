# cuprobe: `make` builds ./cuprobe, build/libcuprobe.a and
# build/libcuprobe-util-pic.a with a C compiler, make and libc alone, and
# build/libcuprobe-trace.so (cuprobe trace's CUPTI injection library) where
# cupti.h is found (CUPTI_INC, e.g. a toolkit's include folder);
# `make test` runs `make lint` and then every test that needs no GPU, twice
# (plain with -Werror, then under ASan+UBSan); `make test-gpu` runs tests/gpu/;
# `make bench` builds the benchmark programs in build/bench/; `make kernels` (nvcc)
# regenerates the embedded probe kernels.

CC      ?= cc
BUILD   ?= build
OPT     ?= -O2 -g
WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
           -Wno-format-nonliteral $(if $(WERROR),-Werror)
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
SANFLAGS = $(if $(SAN),$(SANITIZE))
CPPFLAGS = -Iinclude -Isrc/lib -D_GNU_SOURCE
# The tool sees only the public API: a cli include of a library header fails here.
CPPFLAGS_TOOL = -Iinclude -D_GNU_SOURCE
CFLAGS_ALL = -std=c11 $(OPT) $(WARN) $(SANFLAGS) $(CFLAGS)
LDLIBS_ALL = -ldl -lpthread -lm $(LDLIBS)

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

LIB_SRC  := $(sort $(wildcard src/lib/*/*.c))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
# The ground floor again as position-independent code, for the injection library to come.
UTIL_SRC := $(sort $(wildcard src/lib/util/*.c))
UTIL_PIC := $(UTIL_SRC:%.c=$(BUILD)/pic/%.o)
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FAKES    := $(BUILD)/fakes/libcuda.so.1 $(BUILD)/fakes/libnvidia-ml.so.1 $(BUILD)/fakes/libcublasLt.so.13
FAKE_LIBS := $(addprefix $(BUILD)/fakes/,libcublas.so.13 libcufft.so.12 libcudnn.so.9 libnvrtc.so.13 libnccl.so.2)
FAKES    += $(FAKE_LIBS)
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
TOOL     := $(if $(filter build,$(BUILD)),cuprobe,$(BUILD)/cuprobe)

# The injection library needs only cupti.h (and the cuda.h it includes) to build; libcupti
# itself is dlopen'ed at run time.  Without the header it is left out and everything else builds.
CUDA_HOME ?= /usr/local/cuda
CUPTI_INC ?= $(patsubst %/cupti.h,%,$(firstword $(wildcard $(CUDA_HOME)/include/cupti.h \
               $(CUDA_HOME)/extras/CUPTI/include/cupti.h /usr/local/cuda/include/cupti.h)))
TRACE_LIB := $(if $(CUPTI_INC),$(BUILD)/libcuprobe-trace.so)

.PHONY: all test check-build check-unit check-cli check-install test-gpu fuzz fuzz-build bench clean man checks-md \
        completion lint pic install uninstall kernels
all: $(TOOL) pic $(TRACE_LIB)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS_ALL) -DCUPROBE_VERSION='"$(VERSION)"' -MMD -MP -c -o $@ $<

$(BUILD)/src/cli/%.o: src/cli/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TOOL) $(CFLAGS_ALL) -DCUPROBE_VERSION='"$(VERSION)"' -MMD -MP -c -o $@ $<

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS_ALL) -fPIC -MMD -MP -c -o $@ $<

pic: $(BUILD)/libcuprobe-util-pic.a
$(BUILD)/libcuprobe-util-pic.a: $(UTIL_PIC)
	@rm -f $@
	ar rcs $@ $^

# Position-independent, never sanitized (it is loaded into any program: the ASan build links
# it with plain copies of the PIC objects), hidden but for InitializeInjection; the trace
# writer (trace/codec.c) is shared with the library.
INJ_PIC  := $(BUILD)/pic$(if $(SAN),-plain)
INJ_UTIL := $(BUILD)/libcuprobe-util-pic$(if $(SAN),-plain).a
$(BUILD)/pic-plain/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -std=c11 $(OPT) $(WARN) $(CFLAGS) -fPIC -MMD -MP -c -o $@ $<
$(BUILD)/libcuprobe-util-pic-plain.a: $(UTIL_SRC:%.c=$(BUILD)/pic-plain/%.o)
	@rm -f $@
	ar rcs $@ $^
INJ_SRC  := $(sort $(wildcard src/inject/*.c))
$(BUILD)/libcuprobe-trace.so: $(INJ_SRC) $(wildcard src/inject/*.h) src/inject/trace.map $(INJ_PIC)/src/lib/trace/codec.o $(INJ_UTIL)
	$(CC) $(CPPFLAGS) -isystem $(CUPTI_INC) -std=c11 $(OPT) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -shared \
	    -o $@ $(INJ_SRC) $(INJ_PIC)/src/lib/trace/codec.o $(INJ_UTIL) -Wl,-z,defs -Wl,--version-script=src/inject/trace.map -ldl -lpthread

$(BUILD)/libcuprobe.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(TOOL): $(CLI_OBJ) $(BUILD)/libcuprobe.a
	$(CC) $(CFLAGS_ALL) -o $@ $(CLI_OBJ) $(BUILD)/libcuprobe.a $(LDLIBS_ALL)

# Unit tests: one program per tests/unit/test_*.c, linked with the library.
$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(BUILD)/libcuprobe.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS_ALL) -o $@ $< $(BUILD)/libcuprobe.a $(LDLIBS_ALL)

# test_abi compares our declarations with the official cuda.h where one is installed.
$(BUILD)/tests/test_abi: private CPPFLAGS += $(if $(wildcard /usr/local/cuda/include/cuda.h),-isystem /usr/local/cuda/include)

# Fake vendor libraries, driven by the scenario file in $CUPROBE_FAKE_SCENARIO.
# Never sanitized: they are dlopen'ed into the probe child like the real ones.
$(BUILD)/fakes/libcuda.so.1: tests/fakes/fake_cuda.c tests/fakes/fake_common.h src/lib/kernels/kernels.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -fPIC -shared $(CPPFLAGS) -Wall -Wextra -o $@ $< -Wl,-soname,libcuda.so.1 -lm
# The CUDA libraries level 2 runs: one fake, built once per soname.
$(FAKE_LIBS): tests/fakes/fake_libs.c tests/fakes/fake_common.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -fPIC -shared $(CPPFLAGS) -Wall -Wextra -o $@ $< -Wl,-soname,$(notdir $@) -lm
$(BUILD)/fakes/libnvidia-ml.so.1: tests/fakes/fake_nvml.c tests/fakes/fake_common.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -fPIC -shared $(CPPFLAGS) -Wall -Wextra -o $@ $< -Wl,-soname,libnvidia-ml.so.1
$(BUILD)/fakes/libcublasLt.so.13: tests/fakes/fake_cublaslt.c tests/fakes/fake_common.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -fPIC -shared $(CPPFLAGS) -Wall -Wextra -o $@ $< -Wl,-soname,libcublasLt.so.13 -lm

# cuprobe trace's fakes, where the injection library builds: libcupti over synthetic
# records, and a program that calls InitializeInjection as cuInit does.
TRACE_FAKES := $(if $(CUPTI_INC),$(BUILD)/fakes/cupti/libcupti.so.13 $(BUILD)/fakes/cupti-nopm/libcupti.so.13 \
                 $(BUILD)/fakes/inject_host)
$(BUILD)/fakes/cupti/libcupti.so.13: tests/fakes/fake_cupti.c src/inject/cupti_host.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -fPIC -shared -isystem $(CUPTI_INC) -Wall -Wextra -o $@ $< -Wl,-soname,libcupti.so.13
# the same without PM sampling and the profiler host API: a libcupti older than them
$(BUILD)/fakes/cupti-nopm/libcupti.so.13: tests/fakes/fake_cupti.c src/inject/cupti_host.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -fPIC -shared -isystem $(CUPTI_INC) -DFAKE_CUPTI_NO_PM -Wall -Wextra -o $@ $< -Wl,-soname,libcupti.so.13
$(BUILD)/fakes/inject_host: tests/fakes/inject_host.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -fno-omit-frame-pointer -D_GNU_SOURCE -Wall -Wextra -o $@ $< -ldl -lpthread

check-build: $(TOOL) $(UNIT_BIN) $(FAKES) pic bench $(TRACE_LIB) $(TRACE_FAKES)

# The unit programs, then the library's call arrows read from this build's objects.
check-unit: check-build
	@sh tests/run-unit.sh $(BUILD)
	@sh tests/arrows.sh $(BUILD)

check-cli: check-build
	@sh tests/cli/run.sh $(TOOL) $(BUILD)
	@sh tests/install.sh $(BUILD) "$(SANFLAGS)"
	@bash tests/exporter.sh $(TOOL) $(BUILD) "$(SANFLAGS)"
	@sh tests/deploy.sh $(TOOL) $(BUILD)
	@sh tests/top.sh $(TOOL) $(BUILD)
	@sh tests/trace-fake.sh $(TOOL) $(BUILD)
	@sh tests/html.sh $(TOOL) $(BUILD) "$(SANFLAGS)"

# The formatting rules and the banned-function list (tools/lint.sh).
lint:
	@sh tools/lint.sh

# The CI entry point: lint, everything twice, then one summary line.
test: lint
	@sh tools/test-deps.sh
	@rm -f build/results.txt build-asan/results.txt
	$(MAKE) --no-print-directory BUILD=build WERROR=1 check-unit check-cli
	$(MAKE) --no-print-directory BUILD=build-asan WERROR=1 SAN=1 check-unit check-cli
	@sh tests/summary.sh build/results.txt build-asan/results.txt

test-gpu: $(TOOL)
	@sh tests/gpu/run.sh ./$(TOOL) && sh tests/gpu/explain_live.sh ./$(TOOL) && sh tests/gpu/trace.sh ./$(TOOL)

# libFuzzer targets (clang): build/fuzz/fuzz_NAME; an ASan or UBSan finding stops
# the run with a crash file.  Run one for N seconds:
#   make fuzz FUZZ_SECONDS=600            (every target, one after another)
#   build/fuzz/fuzz_modules -max_total_time=600 tests/fuzz/corpus/modules
FUZZ_SECONDS ?= 60
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
fuzz-build: $(FUZZ_BIN)
build/fuzz/%: tests/fuzz/%.c $(LIB_SRC)
	@mkdir -p $(dir $@)
	clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(CPPFLAGS) -o $@ $< $(LIB_SRC) -ldl -lpthread -lm
fuzz: fuzz-build
	@for f in $(FUZZ_BIN); do n=$${f##*/fuzz_}; mkdir -p build/fuzz/corpus-$$n; \
	  echo "== $$f for $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=quarantine_size_mb=32 $$f -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=1024 \
	    build/fuzz/corpus-$$n tests/fuzz/corpus/$$n || exit 1; done

# The benchmark programs (bench/*.c: floor_l1, probe_rss), one binary each,
# never sanitized (they measure); the bench/*.sh scripts build them this way.
bench: $(BENCH_BIN)
$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(WARN) -D_GNU_SOURCE -o $@ $< -ldl

# The probe kernels' fatbinary, committed as C (src/lib/kernels/probe_kernels_fatbin.c) so
# that nothing else needs the CUDA toolkit: `make kernels [NVCC=path]` regenerates it after a
# change to probe_kernels.cu or tools/gen_kernels.sh (test_kernels fails until then).
NVCC ?= $(if $(wildcard /usr/local/cuda/bin/nvcc),/usr/local/cuda/bin/nvcc,nvcc)
kernels:
	sh tools/gen_kernels.sh "$(NVCC)" src/lib/kernels/probe_kernels_fatbin.c

# Generated documents, kept in sync by CLI cases (man-page, checks-md, bash-completion).
man: $(TOOL)
	./$(TOOL) --man > docs/cuprobe.1
checks-md: $(TOOL)
	./$(TOOL) --checks-md > docs/checks.md
completion: $(TOOL)
	./$(TOOL) --bash-completion > docs/cuprobe.bash

# make install [PREFIX=/usr/local] [DESTDIR=staging]: the tool, the library
# and its public headers, the man page and the bash completion; make
# uninstall (same PREFIX and DESTDIR) removes exactly those files.
# tests/install.sh (part of check-cli) installs into a temporary DESTDIR.
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
HEADERS     := $(sort $(wildcard include/cuprobe/*.h))
INSTALLED    = $(BINDIR)/cuprobe $(LIBDIR)/libcuprobe.a $(MANDIR)/man1/cuprobe.1 $(BASHCOMPDIR)/cuprobe \
               $(HEADERS:include/%=$(INCLUDEDIR)/%)
install: $(TOOL) $(BUILD)/libcuprobe.a
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(INCLUDEDIR)/cuprobe" \
	    "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(BASHCOMPDIR)"
	install -m 755 $(TOOL) "$(DESTDIR)$(BINDIR)/cuprobe"
	install -m 644 $(BUILD)/libcuprobe.a "$(DESTDIR)$(LIBDIR)/libcuprobe.a"
	install -m 644 $(HEADERS) "$(DESTDIR)$(INCLUDEDIR)/cuprobe/"
	install -m 644 docs/cuprobe.1 "$(DESTDIR)$(MANDIR)/man1/cuprobe.1"
	install -m 644 docs/cuprobe.bash "$(DESTDIR)$(BASHCOMPDIR)/cuprobe"
uninstall:
	rm -f $(foreach f,$(INSTALLED),"$(DESTDIR)$(f)")
	-rmdir "$(DESTDIR)$(INCLUDEDIR)/cuprobe" 2>/dev/null

clean:
	rm -rf build build-asan cuprobe

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UTIL_PIC:.o=.d) $(wildcard $(BUILD)/pic-plain/src/lib/*/*.d)
