package devutil

import "regexp"

// kbEntry is one known error: a pattern over "type: message", the
// language it belongs to ("" for any), the type to report when only the
// message is known, a fix and the official documentation.
type kbEntry struct {
	lang    Language
	re      *regexp.Regexp
	errType string
	fix     string
	docs    []string
}

func (e *kbEntry) typeName(string) string { return e.errType }

// lookupError finds the knowledge-base entry for an error. lang may be
// "" (unknown), in which case any language's entry may answer.
func lookupError(lang Language, typ, msg string) *kbEntry {
	text := msg
	if typ != "" {
		text = typ + ": " + msg
	}
	if text == "" {
		return nil
	}
	if len(text) > maxStacktraceLineLen {
		text = text[:maxStacktraceLineLen]
	}
	for i := range knowledgeBase {
		e := &knowledgeBase[i]
		sameLang := e.lang == "" || lang == "" || e.lang == lang || (lang == LangKotlin && e.lang == LangJava)
		if sameLang && e.re.MatchString(text) {
			return e
		}
	}
	return nil
}

func kb(lang Language, pattern, errType, fix string, docs ...string) kbEntry {
	return kbEntry{lang: lang, re: regexp.MustCompile(pattern), errType: errType, fix: fix, docs: docs}
}

const (
	goSpec     = "https://go.dev/ref/spec"
	pyExc      = "https://docs.python.org/3/library/exceptions.html#"
	javaLang   = "https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/lang/"
	javaUtil   = "https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/util/"
	mdnErrors  = "https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Errors/"
	nodeErrors = "https://nodejs.org/api/errors.html#"
	rubyDocs   = "https://docs.ruby-lang.org/en/master/"
	dotnetAPI  = "https://learn.microsoft.com/en-us/dotnet/api/system."
	phpManual  = "https://www.php.net/manual/en/"
	rustStd    = "https://doc.rust-lang.org/std/"
)

// knowledgeBase holds the common errors of each language, most specific
// first within a language.
var knowledgeBase = []kbEntry{
	// Go.
	kb(LangGo, `assignment to entry in nil map`, "runtime error: assignment to entry in nil map",
		"A map was written before it was created. Initialize it with make(map[K]V) or a composite literal before the first write; in structs, initialize map fields in the constructor.",
		goSpec+"#Map_types", "https://go.dev/blog/maps"),
	kb(LangGo, `index out of range`, "runtime error: index out of range",
		"An index reached past the end of a slice, array or string. Check the length before indexing (if i < len(s)), and look for off-by-one loops and empty inputs.",
		goSpec+"#Index_expressions"),
	kb(LangGo, `slice bounds out of range`, "runtime error: slice bounds out of range",
		"A slice expression s[lo:hi] used bounds outside 0 <= lo <= hi <= cap(s). Clamp the bounds to len(s) and handle short inputs.",
		goSpec+"#Slice_expressions"),
	kb(LangGo, `nil pointer dereference|invalid memory address`, "runtime error: invalid memory address or nil pointer dereference",
		"A nil pointer, map, interface or function value was used. Check the error returned alongside the value before using it (a nil value usually comes with a non-nil error), and initialize struct pointer fields.",
		goSpec+"#Address_operators", "https://go.dev/doc/faq#nil_error"),
	kb(LangGo, `all goroutines are asleep - deadlock`, "fatal error: all goroutines are asleep - deadlock!",
		"Every goroutine is blocked: typically a send on an unbuffered channel with no receiver, a receive nobody sends to, a WaitGroup waited on but never Done, or a mutex locked twice. Make sure each send has a receiver and close channels that are ranged over.",
		goSpec+"#Channel_types", "https://go.dev/doc/effective_go#channels"),
	kb(LangGo, `concurrent map (writes|read and map write|iteration and map write)`, "fatal error: concurrent map writes",
		"A map was used from several goroutines without synchronization. Guard it with a sync.Mutex or sync.RWMutex, or use sync.Map; run the tests with -race to find every such access.",
		"https://go.dev/doc/articles/race_detector", "https://pkg.go.dev/sync#Mutex"),
	kb(LangGo, `interface conversion`, "runtime error: interface conversion",
		"A type assertion x.(T) failed. Use the two-value form v, ok := x.(T) or a type switch, and handle the other types.",
		goSpec+"#Type_assertions"),
	kb(LangGo, `integer divide by zero`, "runtime error: integer divide by zero",
		"An integer was divided by zero. Check the divisor before dividing.",
		goSpec+"#Arithmetic_operators"),
	kb(LangGo, `send on closed channel|close of closed channel|close of nil channel`, "panic: send on closed channel",
		"A channel was closed while a sender still used it, or closed twice. Only the sender should close a channel, exactly once (sync.Once helps), after all sends are done.",
		goSpec+"#Close", goSpec+"#Send_statements"),
	kb(LangGo, `stack overflow|goroutine stack exceeds`, "fatal error: stack overflow",
		"A recursion did not terminate (often a method calling itself, such as a String method that formats its own receiver with %v). Add or fix the base case.",
		"https://pkg.go.dev/runtime/debug#SetMaxStack"),
	kb(LangGo, `out of memory|cannot allocate memory`, "fatal error: out of memory",
		"The process ran out of memory. Stream large inputs instead of reading them whole, bound caches and buffers, and profile the heap with pprof; GOMEMLIMIT sets a soft limit.",
		"https://go.dev/doc/gc-guide", "https://pkg.go.dev/runtime/pprof"),
	kb(LangGo, `negative WaitGroup counter`, "panic: sync: negative WaitGroup counter",
		"Done was called more times than Add. Call Add before starting each goroutine and Done exactly once in it (defer wg.Done()).",
		"https://pkg.go.dev/sync#WaitGroup"),
	kb(LangGo, `unlock of unlocked mutex`, "fatal error: sync: unlock of unlocked mutex",
		"A mutex was unlocked without being locked, often by a doubled Unlock or a copied struct holding the mutex. Pair Lock with defer Unlock and never copy a struct containing a mutex (go vet's copylocks check finds it).",
		"https://pkg.go.dev/sync#Mutex"),

	// Python.
	kb(LangPython, `^KeyError`, "KeyError",
		"A dict was indexed with a key it does not hold. Use d.get(key, default), check `key in d` first, or use collections.defaultdict; print the available keys when debugging.",
		pyExc+"KeyError", "https://docs.python.org/3/library/stdtypes.html#dict.get"),
	kb(LangPython, `^IndexError`, "IndexError",
		"A sequence was indexed past its end. Check len() before indexing and handle empty lists.",
		pyExc+"IndexError"),
	kb(LangPython, `^AttributeError: 'NoneType' object has no attribute`, "AttributeError",
		"A value is None where an object was expected, often the result of a function that returned nothing or a lookup that found nothing (re.match, dict.get). Check for None before using it.",
		pyExc+"AttributeError"),
	kb(LangPython, `^TypeError: 'NoneType' object is not (subscriptable|iterable|callable)`, "TypeError",
		"A value is None where a list, dict or function was expected. Find where it was assigned; a function without a return statement returns None.",
		pyExc+"TypeError"),
	kb(LangPython, `^AttributeError`, "AttributeError",
		"The object has no such attribute or method: check the spelling, the object's type (print(type(x))), and whether a module shadows a library of the same name.",
		pyExc+"AttributeError"),
	kb(LangPython, `^TypeError: .*(missing \d+ required positional argument|takes \d+ positional argument)`, "TypeError",
		"A function was called with the wrong number of arguments. Compare the call with the signature; for methods, remember self, and call methods on instances rather than classes.",
		pyExc+"TypeError", "https://docs.python.org/3/tutorial/controlflow.html#defining-functions"),
	kb(LangPython, `^TypeError: unsupported operand|^TypeError: can only concatenate|^TypeError: must be str`, "TypeError",
		"An operator got operands of incompatible types, such as str + int. Convert explicitly (str(n), int(s)) or use an f-string.",
		pyExc+"TypeError"),
	kb(LangPython, `^NameError`, "NameError",
		"A name is used before it is defined: a typo, a missing import, or a variable defined only in another branch or scope.",
		pyExc+"NameError"),
	kb(LangPython, `^(ModuleNotFoundError|ImportError)`, "ModuleNotFoundError",
		"A module cannot be imported. Install it into the interpreter that runs the code (python -m pip install ...), check the virtual environment, and look for a local file shadowing the module's name.",
		pyExc+"ModuleNotFoundError", "https://docs.python.org/3/reference/import.html"),
	kb(LangPython, `^ValueError: invalid literal for int\(\)`, "ValueError",
		"A string that is not an integer was passed to int(). Strip whitespace, validate the input, and catch ValueError where the input comes from users.",
		pyExc+"ValueError", "https://docs.python.org/3/library/functions.html#int"),
	kb(LangPython, `^ZeroDivisionError`, "ZeroDivisionError",
		"A number was divided by zero. Check the divisor first.",
		pyExc+"ZeroDivisionError"),
	kb(LangPython, `^FileNotFoundError`, "FileNotFoundError",
		"The file does not exist at that path. Relative paths are relative to the working directory, not the script: build paths from pathlib.Path(__file__).parent.",
		pyExc+"FileNotFoundError", "https://docs.python.org/3/library/pathlib.html"),
	kb(LangPython, `^RecursionError`, "RecursionError",
		"A recursion went deeper than the interpreter's limit. Fix the base case, or rewrite the recursion as a loop.",
		pyExc+"RecursionError"),
	kb(LangPython, `^UnicodeDecodeError`, "UnicodeDecodeError",
		"Bytes were decoded with the wrong encoding. Pass the right encoding to open() or bytes.decode(), or errors='replace' when the data is untrusted.",
		pyExc+"UnicodeDecodeError", "https://docs.python.org/3/howto/unicode.html"),
	kb(LangPython, `JSONDecodeError`, "json.JSONDecodeError",
		"The text is not valid JSON: often an empty response body or an HTML error page. Log the raw text and check the response status before decoding.",
		"https://docs.python.org/3/library/json.html#json.JSONDecodeError"),
	kb(LangPython, `^(ConnectionRefusedError|.*Connection refused)`, "ConnectionRefusedError",
		"Nothing listens on that host and port. Check that the service is running, the port, and (in containers) that you are not connecting to localhost of the wrong container.",
		pyExc+"ConnectionRefusedError"),
	kb(LangPython, `^PermissionError`, "PermissionError",
		"The process lacks permission for the file or port. Check ownership and mode, and ports below 1024.",
		pyExc+"PermissionError"),
	kb(LangPython, `DoesNotExist`, "DoesNotExist",
		"A Django query with get() found no row. Use filter().first(), get_object_or_404, or catch Model.DoesNotExist.",
		"https://docs.djangoproject.com/en/stable/ref/exceptions/#objectdoesnotexist"),

	// Java and Kotlin.
	kb(LangJava, `UninitializedPropertyAccessException`, "kotlin.UninitializedPropertyAccessException",
		"A lateinit property was read before it was assigned. Initialize it earlier, check ::prop.isInitialized, or make it nullable or lazy.",
		"https://kotlinlang.org/docs/properties.html#late-initialized-properties-and-variables"),
	kb(LangJava, `KotlinNullPointerException|NullPointerException.*!!`, "kotlin.KotlinNullPointerException",
		"A !! assertion met a null. Replace !! with a safe call (?.), an elvis default (?:), or a check.",
		"https://kotlinlang.org/docs/null-safety.html"),
	kb(LangJava, `NullPointerException`, "java.lang.NullPointerException",
		"A null reference was dereferenced; the helpful message names the expression. Initialize the field, check for null at the boundary, or use Optional for values that may be absent.",
		javaLang+"NullPointerException.html"),
	kb(LangJava, `(ArrayIndexOutOfBounds|StringIndexOutOfBounds|IndexOutOfBounds)Exception`, "java.lang.IndexOutOfBoundsException",
		"An index was outside 0..size-1. Check the size before indexing and look for off-by-one loop bounds.",
		javaLang+"IndexOutOfBoundsException.html"),
	kb(LangJava, `ClassCastException`, "java.lang.ClassCastException",
		"An object was cast to a type it does not have. Check with instanceof (or pattern matching) before casting, and look for raw generic types.",
		javaLang+"ClassCastException.html"),
	kb(LangJava, `NumberFormatException`, "java.lang.NumberFormatException",
		"A string that is not a number was parsed. Trim and validate it, and catch NumberFormatException for user input.",
		javaLang+"NumberFormatException.html"),
	kb(LangJava, `ConcurrentModificationException`, "java.util.ConcurrentModificationException",
		"A collection was modified while being iterated. Use Iterator.remove, removeIf, or iterate over a copy; across threads use a concurrent collection.",
		javaUtil+"ConcurrentModificationException.html"),
	kb(LangJava, `OutOfMemoryError`, "java.lang.OutOfMemoryError",
		"The heap is exhausted. Look for unbounded caches and collections, take a heap dump (-XX:+HeapDumpOnOutOfMemoryError), and raise -Xmx only once the leak is ruled out.",
		javaLang+"OutOfMemoryError.html"),
	kb(LangJava, `StackOverflowError`, "java.lang.StackOverflowError",
		"A recursion did not terminate, often two methods (or toString/equals/hashCode of entities referring to each other) calling each other. Fix the base case.",
		javaLang+"StackOverflowError.html"),
	kb(LangJava, `ArithmeticException`, "java.lang.ArithmeticException",
		"An integer division by zero (or an inexact BigDecimal division). Check the divisor; give BigDecimal.divide a MathContext.",
		javaLang+"ArithmeticException.html"),
	kb(LangJava, `(ClassNotFoundException|NoClassDefFoundError)`, "java.lang.ClassNotFoundException",
		"A class is missing from the runtime classpath. Check the dependency's scope (provided/test), shading, and version conflicts (mvn dependency:tree or gradle dependencies).",
		javaLang+"ClassNotFoundException.html"),
	kb(LangJava, `ConnectException.*Connection refused|Connection refused`, "java.net.ConnectException",
		"Nothing listens on that host and port. Check that the service is up and the configured URL and port.",
		"https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/net/ConnectException.html"),
	kb(LangJava, `IllegalArgumentException`, "java.lang.IllegalArgumentException",
		"A method rejected an argument; the message says which. Validate the value where it enters the program.",
		javaLang+"IllegalArgumentException.html"),
	kb(LangJava, `IllegalStateException`, "java.lang.IllegalStateException",
		"A method was called at the wrong time for the object's state (not yet initialized, already closed). Check the object's lifecycle.",
		javaLang+"IllegalStateException.html"),
	kb(LangJava, `UnsupportedOperationException`, "java.lang.UnsupportedOperationException",
		"An immutable collection (List.of, Collections.unmodifiableList, Arrays.asList for add/remove) was modified. Copy it into a new ArrayList first.",
		javaLang+"UnsupportedOperationException.html"),
	kb(LangJava, `NoSuchElementException`, "java.util.NoSuchElementException",
		"next() or Optional.get() was called with nothing there. Check hasNext(), or use orElse/orElseThrow with a clear message.",
		javaUtil+"NoSuchElementException.html"),

	// JavaScript and Node.
	kb(LangJavaScript, `Cannot read propert(y|ies) of (undefined|null)|undefined is not an object|null is not an object`, "TypeError",
		"A property was read from undefined or null. Find which value is missing (often an async result not yet loaded or a misspelled key), guard with optional chaining (obj?.prop) or a default.",
		mdnErrors+"Cant_access_property"),
	kb(LangJavaScript, `Cannot set propert(y|ies) of (undefined|null)`, "TypeError",
		"A property was assigned on undefined or null. Create the object first.",
		mdnErrors+"Cant_access_property"),
	kb(LangJavaScript, `is not a function`, "TypeError",
		"A value that is not a function was called: a typo, a missing import or export, a method called on the wrong type, or a property shadowing a method.",
		mdnErrors+"Not_a_function"),
	kb(LangJavaScript, `^ReferenceError: .* is not defined`, "ReferenceError",
		"A variable is used but never declared in scope: a typo, a missing import, or browser-only globals (window, document) used in Node.",
		mdnErrors+"Not_defined"),
	kb(LangJavaScript, `Cannot access '.*' before initialization`, "ReferenceError",
		"A let or const was used in its temporal dead zone, often through a circular import. Move the use after the declaration or break the cycle.",
		mdnErrors+"Cant_access_lexical_declaration_before_init"),
	kb(LangJavaScript, `Assignment to constant variable`, "TypeError",
		"A const binding was reassigned. Declare it with let if it must change.",
		mdnErrors+"Invalid_const_assignment"),
	kb(LangJavaScript, `Unexpected token .* in JSON|is not valid JSON|Unexpected end of JSON input`, "SyntaxError",
		"JSON.parse got text that is not JSON: often an HTML error page or an empty body. Check response.ok and the Content-Type before parsing, and log the raw text.",
		mdnErrors+"JSON_bad_parse"),
	kb(LangJavaScript, `Maximum call stack size exceeded`, "RangeError",
		"A recursion did not terminate (or a setter sets itself, or a React component renders itself). Fix the base case.",
		mdnErrors+"Too_much_recursion"),
	kb(LangJavaScript, `ECONNREFUSED`, "Error [ECONNREFUSED]",
		"Nothing listens on that host and port. Start the service, check the port, and in Node 17+ note that localhost may resolve to ::1 first: use 127.0.0.1 if the server listens on IPv4 only.",
		nodeErrors+"common-system-errors"),
	kb(LangJavaScript, `EADDRINUSE`, "Error [EADDRINUSE]",
		"The port is already in use, often by a previous instance of the server. Stop it or choose another port.",
		nodeErrors+"common-system-errors"),
	kb(LangJavaScript, `ENOENT`, "Error [ENOENT]",
		"The file or directory does not exist. Relative paths resolve against process.cwd(): build them from import.meta.dirname or __dirname.",
		nodeErrors+"common-system-errors"),
	kb(LangJavaScript, `ETIMEDOUT|ECONNRESET|socket hang up`, "Error [ETIMEDOUT]",
		"The connection timed out or was reset by the peer. Add timeouts and retries with backoff, and check keep-alive settings on both sides.",
		nodeErrors+"common-system-errors"),
	kb(LangJavaScript, `Cannot find module|ERR_MODULE_NOT_FOUND`, "Error [MODULE_NOT_FOUND]",
		"A module cannot be resolved. Run npm install, check the import path and its file extension (required in ES modules), and the package's exports map.",
		nodeErrors+"err_module_not_found", "https://nodejs.org/api/modules.html"),
	kb(LangJavaScript, `heap out of memory`, "FATAL ERROR: JavaScript heap out of memory",
		"The V8 heap is exhausted. Look for unbounded arrays and caches, stream large data; --max-old-space-size raises the limit.",
		"https://nodejs.org/api/cli.html#--max-old-space-sizesize-in-megabytes"),
	kb(LangJavaScript, `UnhandledPromiseRejection|unhandled promise rejection`, "UnhandledPromiseRejection",
		"A promise rejected with no handler. Await it inside try/catch or add .catch().",
		nodeErrors+"err_unhandled_rejection"),

	// Ruby.
	kb(LangRuby, `undefined method .* for nil`, "NoMethodError",
		"A method was called on nil: a lookup found nothing or a variable was never set. Check for nil, use the safe navigation operator (&.), or fetch with a default.",
		rubyDocs+"NoMethodError.html"),
	kb(LangRuby, `^NoMethodError`, "NoMethodError",
		"The object does not respond to that method. Check its class and the spelling.",
		rubyDocs+"NoMethodError.html"),
	kb(LangRuby, `uninitialized constant`, "NameError",
		"A constant or class is not loaded: a typo, a missing require, or a file name not matching the class for the autoloader.",
		rubyDocs+"NameError.html", "https://guides.rubyonrails.org/autoloading_and_reloading_constants.html"),
	kb(LangRuby, `wrong number of arguments`, "ArgumentError",
		"A method got the wrong number of arguments. Compare the call with the definition, including keyword arguments.",
		rubyDocs+"ArgumentError.html"),
	kb(LangRuby, `RecordNotFound`, "ActiveRecord::RecordNotFound",
		"find found no record with that id. Use find_by (which returns nil) or rescue it and answer 404.",
		"https://api.rubyonrails.org/classes/ActiveRecord/RecordNotFound.html"),
	kb(LangRuby, `^(LoadError|cannot load such file)`, "LoadError",
		"A required file or gem cannot be loaded. Add it to the Gemfile and run bundle install, or fix the require path.",
		rubyDocs+"LoadError.html"),
	kb(LangRuby, `^ZeroDivisionError`, "ZeroDivisionError",
		"An integer was divided by zero. Check the divisor.", rubyDocs+"ZeroDivisionError.html"),
	kb(LangRuby, `^KeyError`, "KeyError",
		"Hash#fetch found no such key. Pass a default to fetch or check key? first.", rubyDocs+"KeyError.html"),

	// .NET.
	kb(LangDotNet, `NullReferenceException`, "System.NullReferenceException",
		"A null reference was dereferenced. Find which expression on the reported line is null; enable nullable reference types to catch this at compile time.",
		dotnetAPI+"nullreferenceexception", "https://learn.microsoft.com/en-us/dotnet/csharp/nullable-references"),
	kb(LangDotNet, `(IndexOutOfRange|ArgumentOutOfRange)Exception`, "System.ArgumentOutOfRangeException",
		"An index or argument was outside the valid range. Check Count/Length before indexing.",
		dotnetAPI+"argumentoutofrangeexception", dotnetAPI+"indexoutofrangeexception"),
	kb(LangDotNet, `ArgumentNullException`, "System.ArgumentNullException",
		"A method received null for a required argument; the message names the parameter. Check where that value comes from.",
		dotnetAPI+"argumentnullexception"),
	kb(LangDotNet, `Sequence contains no (matching )?element`, "System.InvalidOperationException",
		"First() or Single() found no element. Use FirstOrDefault() and handle null, or check Any() first.",
		"https://learn.microsoft.com/en-us/dotnet/api/system.linq.enumerable.first"),
	kb(LangDotNet, `Collection was modified`, "System.InvalidOperationException",
		"A collection was modified while being enumerated. Iterate over a copy (ToList()) or collect changes and apply them after the loop.",
		dotnetAPI+"invalidoperationexception"),
	kb(LangDotNet, `KeyNotFoundException`, "System.Collections.Generic.KeyNotFoundException",
		"A dictionary was indexed with a missing key. Use TryGetValue.",
		"https://learn.microsoft.com/en-us/dotnet/api/system.collections.generic.keynotfoundexception"),
	kb(LangDotNet, `FormatException`, "System.FormatException",
		"A string was parsed in the wrong format. Use TryParse and specify the culture (CultureInfo.InvariantCulture).",
		dotnetAPI+"formatexception"),
	kb(LangDotNet, `InvalidCastException`, "System.InvalidCastException",
		"A cast failed. Use pattern matching (is T t) or as with a null check.",
		dotnetAPI+"invalidcastexception"),
	kb(LangDotNet, `DivideByZeroException`, "System.DivideByZeroException",
		"An integer was divided by zero. Check the divisor.", dotnetAPI+"dividebyzeroexception"),
	kb(LangDotNet, `ObjectDisposedException`, "System.ObjectDisposedException",
		"An object was used after Dispose, often a DbContext or HttpClient captured beyond its using scope or DI lifetime.",
		dotnetAPI+"objectdisposedexception"),
	kb(LangDotNet, `(TaskCanceled|OperationCanceled)Exception`, "System.Threading.Tasks.TaskCanceledException",
		"An operation was cancelled, most often an HttpClient timeout (100 s by default). Raise HttpClient.Timeout or pass a CancellationToken you control.",
		"https://learn.microsoft.com/en-us/dotnet/api/system.threading.tasks.taskcanceledexception"),
	kb(LangDotNet, `FileNotFoundException`, "System.IO.FileNotFoundException",
		"The file or assembly was not found. Check the path relative to the working directory, and for assemblies the package references and binding redirects.",
		"https://learn.microsoft.com/en-us/dotnet/api/system.io.filenotfoundexception"),
	kb(LangDotNet, `SocketException|actively refused`, "System.Net.Sockets.SocketException",
		"The connection was refused: nothing listens on that host and port. Check that the service runs and the connection string.",
		"https://learn.microsoft.com/en-us/dotnet/api/system.net.sockets.socketexception"),

	// PHP.
	kb(LangPHP, `Call to a member function .* on null`, "Error",
		"A method was called on null: a lookup (find, query result) returned nothing. Check for null first or use the nullsafe operator ?->.",
		phpManual+"language.oop5.basic.php#language.oop5.basic.nullsafe"),
	kb(LangPHP, `Call to undefined (function|method)`, "Error",
		"The function or method does not exist: a typo, a missing extension, or a missing use/namespace import.",
		phpManual+"language.namespaces.importing.php"),
	kb(LangPHP, `Undefined (variable|array key|index|offset)`, "Warning",
		"A variable or array key is read before it is set. Initialize it, or use isset() or the null coalescing operator ($a['k'] ?? $default).",
		phpManual+"language.operators.comparison.php#language.operators.comparison.coalesce"),
	kb(LangPHP, `Allowed memory size of \d+ bytes exhausted`, "Fatal error",
		"The script exceeded memory_limit. Process large data in chunks or generators; raise memory_limit only after ruling out a leak.",
		phpManual+"ini.core.php#ini.memory-limit"),
	kb(LangPHP, `Maximum execution time`, "Fatal error",
		"The script exceeded max_execution_time. Move slow work to a queue, or set the limit for CLI jobs.",
		phpManual+"info.configuration.php#ini.max-execution-time"),
	kb(LangPHP, `DivisionByZeroError|Division by zero`, "DivisionByZeroError",
		"A number was divided by zero. Check the divisor.", phpManual+"class.divisionbyzeroerror.php"),
	kb(LangPHP, `TypeError`, "TypeError",
		"An argument or return value has the wrong type for its declaration. Convert or validate the value before the call.",
		phpManual+"class.typeerror.php"),
	kb(LangPHP, `Class .* not found`, "Error",
		"A class cannot be loaded: check the namespace, the use statement, and run composer dump-autoload.",
		"https://getcomposer.org/doc/01-basic-usage.md#autoloading"),
	kb(LangPHP, `SQLSTATE|PDOException`, "PDOException",
		"The database rejected the query or connection; the SQLSTATE code says why. Check credentials, host and the SQL, and use prepared statements.",
		phpManual+"class.pdoexception.php"),

	// Rust.
	kb(LangRust, `unwrap on None|Option::unwrap\(\)`, "panic: unwrap on None",
		"unwrap() was called on None. Handle the None case with match, if let, ok_or(...)? or unwrap_or.",
		rustStd+"option/enum.Option.html#method.unwrap", "https://doc.rust-lang.org/book/ch09-02-recoverable-errors-with-result.html"),
	kb(LangRust, `unwrap on Err|Result::unwrap\(\)`, "panic: unwrap on Err",
		"unwrap() was called on an Err. Propagate the error with ?, or handle it with match; use expect(\"why\") where failure is truly impossible.",
		rustStd+"result/enum.Result.html#method.unwrap", "https://doc.rust-lang.org/book/ch09-02-recoverable-errors-with-result.html"),
	kb(LangRust, `index out of bounds`, "panic: index out of bounds",
		"A slice or Vec was indexed past its end. Use get(i), which returns an Option, or check len() first.",
		rustStd+"primitive.slice.html#method.get"),
	kb(LangRust, `overflow`, "panic: arithmetic overflow",
		"Integer arithmetic overflowed (checked in debug builds). Use checked_*, saturating_* or wrapping_* operations, or a wider type.",
		rustStd+"primitive.u32.html#method.checked_add"),
	kb(LangRust, `divide by zero`, "panic: divide by zero",
		"An integer was divided by zero. Check the divisor or use checked_div.", rustStd+"primitive.i32.html#method.checked_div"),
	kb(LangRust, `already (mutably )?borrowed`, "panic: RefCell already borrowed",
		"A RefCell was borrowed mutably while another borrow was alive. Shorten the borrows' scopes (drop the guard before borrowing again).",
		rustStd+"cell/struct.RefCell.html"),

	// Any language: messages that mean the same everywhere.
	kb("", `(?i)connection refused|ECONNREFUSED`, "connection refused",
		"Nothing listens on that host and port. Check that the service is running, the host and port, and firewalls; in containers, localhost is the container itself.",
		"https://man7.org/linux/man-pages/man2/connect.2.html"),
	kb("", `(?i)permission denied|EACCES`, "permission denied",
		"The process lacks permission for the file, directory or port. Check ownership, mode and the user the process runs as.",
		"https://man7.org/linux/man-pages/man3/errno.3.html"),
	kb("", `(?i)no such file or directory`, "file not found",
		"The path does not exist. Check it relative to the working directory.",
		"https://man7.org/linux/man-pages/man3/errno.3.html"),
	kb("", `(?i)(deadline exceeded|timed? ?out)`, "timeout",
		"An operation did not finish in time. Check the remote service's health and latency, and set explicit timeouts with retries and backoff.",
		"https://man7.org/linux/man-pages/man3/errno.3.html"),
}
