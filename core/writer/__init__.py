"""core/writer"""
