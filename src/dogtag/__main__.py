from dogtag.cli import main

main()
