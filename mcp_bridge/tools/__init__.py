"""mcp_bridge/tools"""
