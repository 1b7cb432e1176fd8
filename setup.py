from setuptools import Extension, setup; setup(ext_modules=[Extension("advisor._solver", ["advisor/_solver.c"], extra_compile_args=["-O3"])])
